/**
 * A CSV whose rows have every kind of problem the refueling import reports, and the problems the core
 * words for it. test/files/import-problem-words.test.ts checks that the core says exactly these;
 * test/renderer/import-problems.test.ts that the screens show each one in Czech.
 */
export const PROBLEM_CSV = [
  'date,odometer,liters,price,currency,rate,partial',
  'yesterday,100,1,1,CZK,1,no',
  '2026-02-30 10:00,100,1,1,CZK,1,no',
  '2026-01-01 10:00,12.5,x,1,ABC,1,maybe',
  '2026-01-01 11:00,,1,1,CZK,1,no',
  '2026-01-01 12:00,-5,1,1,CZK,1,no',
  '2026-01-01 13:00,100,1.2345,1.234,CZK,1.1234567,no',
].join('\n');

export const PROBLEM_WORDS: readonly (readonly string[])[] = [
  ['Column "date": "yesterday" is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.'],
  ['Column "date": "2026-02-30 10:00" is not a real date and time.'],
  [
    'Column "odometer": "12.5" is not a whole number.',
    'Column "liters": "x" is not a number.',
    'Column "currency": "ABC" is not a currency the app knows (use a code such as CZK, EUR or 203).',
    'Column "partial": "maybe" is neither yes nor no.',
  ],
  ['Column "odometer": the odometer is missing.'],
  ['Column "odometer": must be at least 0.'],
  [
    'Column "price": The price has more decimal places than CZK allows (2).',
    'Column "liters": The litres have more than 3 decimal places.',
    'Column "rate": The rate has more than 6 decimal places.',
  ],
];

/** A file without the required columns: the problems every row gets. */
export const UNMAPPED_CSV = 'when,km\n2026-01-01,5';
export const UNMAPPED_WORDS: readonly string[] = ['No column is chosen for the date.', 'No column is chosen for the litres.', 'No column is chosen for the price.'];
