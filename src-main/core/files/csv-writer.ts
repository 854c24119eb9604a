/**
 * CSV text as RFC 4180 writes it: a header row, CRLF line ends, fields holding a comma, a quote, CR or
 * LF quoted with quotes doubled. Numbers are written as they are kept (point, no grouping), so any
 * locale reads them the same.
 *
 * A text cell that a spreadsheet would run as a formula gets a leading apostrophe (csv-formula.ts). A
 * numeric cell is never changed (-120.5 stays a number); it is checked to be a plain decimal instead, so
 * that nothing else can slip in through a column declared numeric.
 */
import { protectText } from './csv-formula';

export type CsvValue = string | number | boolean | null;

export interface CsvColumn<T> {
  header: string;
  value(row: T): CsvValue;
  /** Decimal numbers (text such as "-120.5", or whole numbers): written as they are. */
  numeric?: boolean;
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export class CsvValueError extends Error {
  override name = 'CsvValueError';
}

function numericCell(value: CsvValue, header: string): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : String(value);
  if (!PLAIN_NUMBER.test(text)) throw new CsvValueError(`The ${header} column holds ${JSON.stringify(String(value))}, not a plain number.`);
  return text;
}

function textCell(value: CsvValue): string {
  if (value === null) return '';
  const text = String(value);
  return protectText(text);
}

/** One field, quoted when it must be. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: the header row and one row per record, each line ended with CRLF. */
export function writeCsv<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): string {
  const lines = [columns.map((c) => csvField(textCell(c.header))).join(',')];
  for (const row of rows) {
    lines.push(columns.map((c) => csvField(c.numeric ? numericCell(c.value(row), c.header) : textCell(c.value(row)))).join(','));
  }
  return lines.map((line) => `${line}\r\n`).join('');
}
