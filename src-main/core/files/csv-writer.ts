/**
 * CSV text in one of the dialects of src-shared/csv-dialect.ts: a header row, CRLF line ends, fields
 * holding the separator, a quote, CR or LF quoted with quotes doubled, a BOM first where the dialect has
 * one. Numbers are kept exact (no grouping) with the dialect's decimal mark, dates in its way, so that
 * the spreadsheet it is meant for reads them as numbers and dates and the import reads them back.
 *
 * A text cell that a spreadsheet would run as a formula gets a leading apostrophe (csv-formula.ts). A
 * numeric cell is never changed (-120.5 stays a number); it is checked to be a plain decimal instead, so
 * that nothing else can slip in through a column declared numeric; a date column likewise.
 */
import { CSV_DIALECTS, formatCsvDate, type CsvDialect, type CsvDialectName } from '../../../src-shared/csv-dialect';
import { protectText } from './csv-formula';

export type CsvValue = string | number | boolean | null;

export interface CsvColumn<T> {
  header: string;
  value(row: T): CsvValue;
  /** Decimal numbers (text such as "-120.5", or whole numbers): written exactly, with the dialect's decimal mark. */
  numeric?: boolean;
  /** Wall-clock dates (`YYYY-MM-DDTHH:mm:ss` or `YYYY-MM-DD`): written the dialect's way. */
  date?: boolean;
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** The dialect an export's input names (its `dialect`, from the app API's `csvDialect`); plain when it names none. */
export const dialectOf = (name: CsvDialectName | undefined): CsvDialect => CSV_DIALECTS[name ?? 'plain'];

export class CsvValueError extends Error {
  override name = 'CsvValueError';
}

const shown = (value: CsvValue) => JSON.stringify(String(value));

function numericCell(value: CsvValue, header: string, dialect: CsvDialect): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : String(value);
  if (!PLAIN_NUMBER.test(text)) throw new CsvValueError(`The ${header} column holds ${shown(value)}, not a plain number.`);
  return dialect.decimalMark === '.' ? text : text.replace('.', dialect.decimalMark);
}

function dateCell(value: CsvValue, header: string, dialect: CsvDialect): string {
  if (value === null) return '';
  const text = formatCsvDate(String(value), dialect.dates);
  if (text === null) throw new CsvValueError(`The ${header} column holds ${shown(value)}, not a date.`);
  return text;
}

const textCell = (value: CsvValue): string => (value === null ? '' : protectText(String(value)));

/** One field, quoted when it must be: when it holds the separator, a quote or a line break. */
export function csvField(text: string, separator: CsvDialect['separator']): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function cell<T>(column: CsvColumn<T>, row: T, dialect: CsvDialect): string {
  const value = column.value(row);
  if (column.numeric) return numericCell(value, column.header, dialect);
  if (column.date) return dateCell(value, column.header, dialect);
  return textCell(value);
}

/** The whole file in a dialect: its BOM where it has one, the header row and one row per record, each line ended with CRLF. */
export function writeCsv<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>, dialect: CsvDialect): string {
  const sep = dialect.separator;
  const lines = [columns.map((c) => csvField(textCell(c.header), sep)).join(sep)];
  for (const row of rows) lines.push(columns.map((c) => csvField(cell(c, row, dialect), sep)).join(sep));
  return (dialect.bom ? '\uFEFF' : '') + lines.map((line) => `${line}\r\n`).join('');
}
