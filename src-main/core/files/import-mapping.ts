/**
 * Which CSV column holds which refueling field: guessed from the header's names in English and Czech
 * (our own export's lowercase English headers among them), or given by the user and checked.
 */
import { AppError, importFieldWords, type ImportField, type ImportMapping } from '../../../src-shared/app-api';
import type { CsvSpec } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { plainText } from './import-values';

/** The fields a column can hold, and those an import cannot go without: from the refueling's field table. */
export const IMPORT_FIELDS: readonly ImportField[] = REFUELING.imported;
export const REQUIRED_FIELDS: readonly ImportField[] = IMPORT_FIELDS.filter((f) => (REFUELING.fields[f].csv as CsvSpec).required);

/** Header names per field, compared in lower case without diacritics, punctuation or units (the field table's). */
const NAMES = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, (REFUELING.fields[f].csv as CsvSpec).names ?? []])) as Record<
  ImportField,
  readonly string[]
>;

/** "Stav tachometru (km)" -> "stav tachometru"; "date_of_purchase" -> "date of purchase". */
export function headerKey(name: string): string {
  return plainText(name)
    .replace(/\((?:km|l|czk|kc|eur)\)|\[(?:km|l|czk|kc|eur)\]/g, ' ')
    .replace(/[_\-./:]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Each field gets the first column whose name is one of the field's names; a column serves one field. */
export function guessMapping(header: readonly string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const used = new Set<number>();
  const keys = header.map(headerKey);
  for (const field of IMPORT_FIELDS) {
    const column = keys.findIndex((k, i) => !used.has(i) && NAMES[field].includes(k));
    if (column >= 0) {
      mapping[field] = column;
      used.add(column);
    }
  }
  return mapping;
}

/** A mapping the user gave: columns that exist, each for one field. */
export function checkMapping(mapping: ImportMapping, header: readonly string[]): ImportMapping {
  const byColumn = new Map<number, ImportField>();
  const out: ImportMapping = {};
  for (const field of IMPORT_FIELDS) {
    const column = mapping[field];
    if (column === undefined) continue;
    if (column >= header.length) {
      const words = importFieldWords(field);
      throw new AppError('mappingBeyondFile', { field, words, column: column + 1, columns: header.length }, 'mapping');
    }
    const other = byColumn.get(column);
    if (other) {
      const [firstWords, secondWords] = [importFieldWords(other), importFieldWords(field)];
      throw new AppError('mappingTwice', { column: column + 1, first: other, firstWords, second: field, secondWords }, 'mapping');
    }
    byColumn.set(column, field);
    out[field] = column;
  }
  return out;
}
