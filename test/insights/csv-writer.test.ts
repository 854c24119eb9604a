/** The CSV writer: RFC 4180 quoting, CRLF, formula protection for text only, numbers exactly as kept. */
import { describe, expect, it } from 'vitest';
import { csvField, CsvValueError, writeCsv, type CsvColumn } from '../../src-main/core/files/csv-writer';
import { CSV_DIALECTS } from '../../src-shared/csv-dialect';

const plain = CSV_DIALECTS.plain;

interface Row {
  name: string;
  amount: string | number | null;
  flag: boolean;
}
const columns: CsvColumn<Row>[] = [
  { header: 'name', value: (r) => r.name },
  { header: 'amount', value: (r) => r.amount, numeric: true },
  { header: 'flag', value: (r) => r.flag },
];

describe('writeCsv', () => {
  it('writes a header row and CRLF-ended rows, quoting only what must be quoted', () => {
    const text = writeCsv(
      columns,
      [
        { name: 'plain', amount: '-120.5', flag: true },
        { name: 'a, b', amount: '0.1', flag: false },
        { name: 'say "hi"', amount: 12, flag: false },
        { name: 'two\nlines', amount: null, flag: true },
        { name: 'cr\rhere', amount: '1000000.25', flag: true },
        { name: 'Žluťoučký kůň', amount: '0', flag: false },
      ],
      plain,
    );
    expect(text).toBe(
      'name,amount,flag\r\n' +
        'plain,-120.5,true\r\n' +
        '"a, b",0.1,false\r\n' +
        '"say ""hi""",12,false\r\n' +
        '"two\nlines",,true\r\n' +
        '"cr\rhere",1000000.25,true\r\n' +
        'Žluťoučký kůň,0,false\r\n',
    );
    expect(writeCsv(columns, [], plain)).toBe('name,amount,flag\r\n');
  });

  it('defuses text cells a spreadsheet would run as a formula, never numeric ones', () => {
    const text = writeCsv(
      columns,
      ['=SUM(A1:A9)', '+1', '-2', '@cmd', '\tx', '\r=1', 'a=b', "'quoted"].map((name) => ({ name, amount: '-3.5', flag: false })),
      plain,
    );
    expect(text.split('\r\n').slice(1, -1)).toEqual([
      "'=SUM(A1:A9),-3.5,false",
      "'+1,-3.5,false",
      "'-2,-3.5,false",
      "'@cmd,-3.5,false",
      "'\tx,-3.5,false",
      `"'\r=1",-3.5,false`,
      'a=b,-3.5,false',
      "'quoted,-3.5,false",
    ]);
  });

  it('refuses anything but a plain decimal in a numeric column', () => {
    for (const amount of ['=1+1', '1e5', '1,5', ' 12', '12.', '+5', 'NaN', 0.1, Number.NaN, 2 ** 60]) {
      expect(() => writeCsv(columns, [{ name: 'x', amount, flag: false }], plain), String(amount)).toThrow(CsvValueError);
    }
  });

  it('quotes a single field by the same rules', () => {
    expect(csvField('x', ',')).toBe('x');
    expect(csvField('', ',')).toBe('');
    expect(csvField('"', ',')).toBe('""""');
    expect(csvField('a,b', ';')).toBe('a,b');
    expect(csvField('a;b', ';')).toBe('"a;b"');
  });
});
