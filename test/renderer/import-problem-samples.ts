/**
 * A CSV whose rows have every kind of problem the refueling import reports, the problems the core finds
 * in it (codes with their parameters and columns), and how the command line words them in English.
 * test/files/import-problem-words.test.ts checks that the core finds exactly these; test/renderer/
 * import-problems.test.ts that the screens show each one in Czech.
 */
import type { ImportProblem } from '../../src-shared/app-api';

export const PROBLEM_CSV = [
  'date,odometer,liters,price,currency,rate,partial',
  'yesterday,100,1,1,CZK,1,no',
  '2026-02-30 10:00,100,1,1,CZK,1,no',
  '2026-01-01 10:00,12.5,x,1,ABC,1,maybe',
  '2026-01-01 11:00,,1,1,CZK,1,no',
  '2026-01-01 12:00,-5,1,1,CZK,1,no',
  '2026-01-01 13:00,100,1.2345,1.234,CZK,1.1234567,no',
].join('\n');

const column = (index: number, name: string) => ({ index, name });
const DATE = column(0, 'date');
const ODOMETER = column(1, 'odometer');
const LITERS = column(2, 'liters');

/** Per row of PROBLEM_CSV, the problems the core finds. */
export const PROBLEMS: readonly (readonly ImportProblem[])[] = [
  [{ code: 'importNotDate', params: { value: '"yesterday"' }, field: 'dateOfPurchase', column: DATE }],
  [{ code: 'importNotRealDate', params: { value: '"2026-02-30 10:00"' }, field: 'dateOfPurchase', column: DATE }],
  [
    { code: 'importNotWholeNumber', params: { value: '"12.5"' }, field: 'tachometer', column: ODOMETER },
    { code: 'importNotNumber', params: { value: '"x"' }, field: 'liter', column: LITERS },
    { code: 'importUnknownCurrency', params: { value: '"ABC"' }, field: 'currency', column: column(4, 'currency') },
    { code: 'importNotYesNo', params: { value: '"maybe"' }, field: 'partial', column: column(6, 'partial') },
  ],
  [{ code: 'importMissing', params: { field: 'tachometer', words: 'odometer' }, field: 'tachometer', column: ODOMETER }],
  [{ code: 'tooSmall', params: { min: 0 }, field: 'tachometer', column: ODOMETER }],
  [
    { code: 'tooManyDecimals', params: { max: 3 }, field: 'liter', column: LITERS },
    { code: 'tooManyDecimals', params: { max: 6 }, field: 'rate', column: column(5, 'rate') },
    { code: 'priceDecimals', params: { currency: 'CZK', max: 2 }, field: 'price', column: column(3, 'price') },
  ],
];

/** The same, as the command line words them. */
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
    'Column "liters": must have at most 3 decimal places.',
    'Column "rate": must have at most 6 decimal places.',
    'Column "price": The price has more decimal places than CZK allows (2).',
  ],
];

/** A file without the required columns: the problems every row gets. */
export const UNMAPPED_CSV = 'when,km\n2026-01-01,5';
export const UNMAPPED_PROBLEMS: readonly ImportProblem[] = (
  [
    ['dateOfPurchase', 'date'],
    ['liter', 'litres'],
    ['price', 'price'],
  ] as const
).map(([field, words]) => ({
  code: 'importNoColumn',
  params: { field, words },
  field,
  column: null,
}));
export const UNMAPPED_WORDS: readonly string[] = [
  'No column is chosen for the date.',
  'No column is chosen for the litres.',
  'No column is chosen for the price.',
];
