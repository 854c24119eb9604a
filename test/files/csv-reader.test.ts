/** The CSV reader, and the readers of imported values: RFC 4180 and what spreadsheets write in English and Czech. */
import { describe, expect, it } from 'vitest';
import { CsvError, detectDelimiter, readCsv } from '../../src-main/core/files/csv-reader';
import { guessMapping } from '../../src-main/core/files/import-mapping';
import { readCurrency, readDate, readFlag, readNumber, readWholeNumber, ValueProblem } from '../../src-main/core/files/import-values';
import { caught } from '../support/caught';

describe('CSV reader', () => {
  it('reads quoted fields with doubled quotes, delimiters and line breaks inside', () => {
    const t = readCsv('a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n1,,3\r\n');
    expect(t.delimiter).toBe(',');
    expect(t.header).toEqual(['a', 'b', 'c']);
    expect(t.rows).toEqual([
      { line: 2, cells: ['x, y', 'say "hi"', 'two\r\nlines'] },
      { line: 4, cells: ['1', '', '3'] },
    ]);
  });

  it('takes CR, LF and CRLF line ends, strips a BOM, ignores empty lines and the trailing one', () => {
    const t = readCsv('\uFEFFh1;h2\rA;1\n\nB;2\r\nC;3\n\n');
    expect(t.delimiter).toBe(';');
    expect(t.header).toEqual(['h1', 'h2']);
    expect(t.rows).toEqual([
      { line: 2, cells: ['A', '1'] },
      { line: 4, cells: ['B', '2'] },
      { line: 5, cells: ['C', '3'] },
    ]);
    expect(readCsv('x,y').rows).toEqual([]);
    expect(readCsv('x,y\n1,2').rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
  });

  it('tells the delimiter from the header line only, outside quotes', () => {
    expect(detectDelimiter('a;b;c\n1,5;2,5;3,5')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('"a;b",c,d\n;;;;')).toBe(',');
    expect(detectDelimiter('single')).toBe(',');
    expect(readCsv('d\tl\n2026-01-01\t"4\t2"').rows[0]!.cells).toEqual(['2026-01-01', '4\t2']);
  });

  it("drops the ' our export puts before a cell that looks like a formula, and only that", () => {
    const t = readCsv("a,b,c,d,e\n'=SUM(A1),'+1,'-x,'@me,'plain");
    expect(t.rows[0]!.cells).toEqual(['=SUM(A1)', '+1', '-x', '@me', "'plain"]);
  });

  it('keeps a quote inside an unquoted field and refuses text after a closing quote or an open quote', () => {
    expect(readCsv('a\n5" tyre').rows[0]!.cells).toEqual(['5" tyre']);
    expect(() => readCsv('a,b\n"x"y,2')).toThrow(/Line 2: text follows the closing quote/);
    expect(() => readCsv('a,b\n1,2\n"never closed,3\n')).toThrow(/Line 3: a quoted field is not closed/);
    expect(() => readCsv('')).toThrow(CsvError);
    expect(() => readCsv('\n\n')).toThrow(/empty/);
    // Said by code with the line, for the screens to word (the message above is the command line's).
    expect(() => readCsv('a,b\n"x"y,2')).toThrow(expect.objectContaining({ code: 'csvAfterQuote', params: { line: 2 } }));
    expect(() => readCsv('a,b\n1,2\n"never closed,3\n')).toThrow(expect.objectContaining({ code: 'csvQuoteOpen', params: { line: 3 } }));
    expect(() => readCsv('')).toThrow(expect.objectContaining({ code: 'csvEmpty' }));
  });

  it('caps rows and columns with a clear error', () => {
    const limits = { maxRows: 3, maxColumns: 4 };
    expect(readCsv('h\n1\n2\n3', limits).rows).toHaveLength(3);
    expect(() => readCsv('h\n1\n2\n3\n4', limits)).toThrow(/more than 3 rows/);
    expect(() => readCsv('a,b,c,d\n1,2,3,4,5', limits)).toThrow(/Line 2 has more than 4 columns/);
    expect(() => readCsv(`h\n${'1\n'.repeat(20_001)}`)).toThrow(/more than 20,000 rows/);
    expect(() => readCsv('h\n1\n2\n3\n4', limits)).toThrow(expect.objectContaining({ code: 'csvTooManyRows', params: { rows: 3 } }));
    expect(() => readCsv('a,b,c,d\n1,2,3,4,5', limits)).toThrow(
      expect.objectContaining({ code: 'csvTooManyColumns', params: { line: 2, columns: 4 } }),
    );
  });
});

describe('imported values', () => {
  const problem = (fn: () => unknown) => caught(fn, ValueProblem).message;

  it('reads ISO and Czech dates, with or without a time', () => {
    expect(readDate('2026-11-21')).toBe('2026-11-21T00:00:00');
    expect(readDate('2026-11-21 14:05')).toBe('2026-11-21T14:05:00');
    expect(readDate('2026-11-21T14:05:09')).toBe('2026-11-21T14:05:09');
    expect(readDate('21.11.2026')).toBe('2026-11-21T00:00:00');
    expect(readDate('1. 2. 2026 7:30')).toBe('2026-02-01T07:30:00');
    expect(problem(() => readDate('31.2.2026'))).toMatch(/"31.2.2026" is not a real date/);
    expect(problem(() => readDate('2026-13-01'))).toMatch(/not a real date/);
    expect(problem(() => readDate('yesterday'))).toMatch(/"yesterday" is not a date such as/);
    expect(problem(() => readDate('11/21/2026'))).toMatch(/not a date/);
  });

  it('reads numbers with a decimal point or comma and spaces between thousands', () => {
    expect(readNumber('41.27', null)).toBe('41.27');
    expect(readNumber('41,27', null)).toBe('41.27');
    expect(readNumber('41,27', ',')).toBe('41.27');
    expect(readNumber('1 620,50', ',')).toBe('1620.5');
    expect(readNumber('1\u00A0620.50', null)).toBe('1620.5');
    expect(readNumber('1.620,5', ',')).toBe('1620.5');
    expect(readNumber('1,620.5', null)).toBe('1620.5');
    expect(readNumber('1,234,567', null)).toBe('1234567');
    expect(readNumber('-0,5', ',')).toBe('-0.5');
    // The file's point makes a lone comma a thousands one; undecided, one comma is decimal.
    expect(readNumber('1,500', '.')).toBe('1500');
    expect(readNumber('1,500', null)).toBe('1.5');
    expect(problem(() => readNumber('40,5', '.'))).toMatch(/"40,5" is not a number/);
    expect(problem(() => readNumber('1,234,567', ','))).toMatch(/is not a number/);
    expect(problem(() => readNumber('12 l', null))).toMatch(/"12 l" is not a number/);
    expect(problem(() => readNumber('1.2.3', null))).toMatch(/not a number/);
    expect(problem(() => readNumber('1e3', null))).toMatch(/not a number/);
    expect(readWholeNumber('120 500', ',')).toBe(120500);
    expect(readWholeNumber('120500,0', ',')).toBe(120500);
    expect(problem(() => readWholeNumber('120500,5', ','))).toMatch(/not a whole number/);
  });

  it('reads currencies by numeric or letter code, and yes/no in English and Czech', () => {
    expect(readCurrency('203')).toBe(203);
    expect(readCurrency('eur')).toBe(978);
    expect(readCurrency('Kč')).toBe(203);
    // What the export writes for a code it has no letters for.
    expect(readCurrency('#999')).toBe(999);
    expect(problem(() => readCurrency('#0'))).toMatch(/"#0" is not a currency/);
    expect(problem(() => readCurrency('XYZ'))).toMatch(/"XYZ" is not a currency the app knows/);
    expect(problem(() => readCurrency('999'))).toMatch(/not a currency/);
    for (const yes of ['yes', 'TRUE', '1', 'ano', 'x', 'partial', 'Částečné']) expect(readFlag(yes), yes).toBe(true);
    for (const no of ['no', 'false', '0', 'ne', '']) expect(readFlag(no), no).toBe(false);
    expect(problem(() => readFlag('maybe'))).toMatch(/"maybe" is neither yes nor no/);
  });

  it('guesses columns from English and Czech header names, without case or diacritics', () => {
    expect(
      guessMapping(['id', 'car', 'date', 'odometer', 'liters', 'price', 'currency', 'rate', 'price per liter', 'partial', 'description']),
    ).toEqual({
      dateOfPurchase: 2,
      tachometer: 3,
      liter: 4,
      price: 5,
      currency: 6,
      rate: 7,
      partial: 9,
      description: 10,
    });
    expect(guessMapping(['Datum', 'Stav tachometru (km)', 'Litry', 'Cena', 'Měna', 'Kurz', 'Poznámka', 'Částečné'])).toEqual({
      dateOfPurchase: 0,
      tachometer: 1,
      liter: 2,
      price: 3,
      currency: 4,
      rate: 5,
      description: 6,
      partial: 7,
    });
    expect(guessMapping(['DATE', 'KM', 'L', 'Total'])).toEqual({ dateOfPurchase: 0, tachometer: 1, liter: 2, price: 3 });
    expect(guessMapping(['when', 'how much'])).toEqual({});
  });
});
