/**
 * Which CSV column holds which refueling field: guessed from the header's names in English and Czech
 * (our own export's lowercase English headers among them), or given by the user and checked.
 */
import { AppError, type ImportField, type ImportMapping } from '../../../src-shared/app-api';
import { plainText } from './import-values';

export const IMPORT_FIELDS: readonly ImportField[] = ['dateOfPurchase', 'tachometer', 'liter', 'price', 'currency', 'rate', 'description', 'partial'];
export const REQUIRED_FIELDS: readonly ImportField[] = ['dateOfPurchase', 'tachometer', 'liter', 'price'];

/** Header names per field, compared in lower case without diacritics, punctuation or units. */
const NAMES: Record<ImportField, readonly string[]> = {
  dateOfPurchase: ['date', 'datum', 'date of purchase', 'dateofpurchase', 'purchase date', 'datum nakupu', 'datum tankovani', 'day', 'den'],
  tachometer: ['odometer', 'tachometer', 'km', 'stav tachometru', 'tachometr', 'mileage', 'stav km', 'kilometers', 'kilometres', 'kilometry'],
  liter: ['liters', 'litres', 'liter', 'litre', 'litry', 'litru', 'l', 'mnozstvi', 'objem', 'volume'],
  price: ['price', 'cena', 'total', 'total price', 'celkem', 'cena celkem', 'castka', 'amount', 'cost', 'naklady'],
  currency: ['currency', 'mena', 'cur', 'ccy'],
  rate: ['rate', 'kurz', 'kurs', 'exchange rate', 'smenny kurz'],
  description: ['description', 'popis', 'note', 'notes', 'poznamka', 'poznamky', 'komentar', 'comment'],
  partial: ['partial', 'castecne', 'castecna', 'partial fill', 'castecne natankovani', 'castecne tankovani'],
};

/** "Stav tachometru (km)" -> "stav tachometru"; "date_of_purchase" -> "date of purchase". */
function headerKey(name: string): string {
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
      throw new AppError('mappingBeyondFile', { field, column: column + 1, columns: header.length }, 'mapping');
    }
    const other = byColumn.get(column);
    if (other) {
      throw new AppError('mappingTwice', { column: column + 1, first: other, second: field }, 'mapping');
    }
    byColumn.set(column, field);
    out[field] = column;
  }
  return out;
}
