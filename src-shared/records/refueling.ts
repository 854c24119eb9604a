/**
 * A refueling's fields (the service's apiCarFuel, and the marks this app keeps beside it), in the order
 * of the CSV export. To add a field the service does not have (a local one): a row here with `local`,
 * `input` and `csv`; a migration adding its column to refueling_marks (src-main/core/store/migrations.ts);
 * its label in cs and en (refueling.local.<name>, data.import.fields.<name>).
 */
import { v } from '../validate';
import { field, keysOf, type ImportKey, type LocalKey, type ValuesOf, type WireKey } from './fields';

const currency = () => v.whole({ min: 1, max: 999 });

export const REFUELING_FIELDS = {
  carId: field({ type: 'integer', wire: 'Id_Car', param: 'CarId', column: 'car_id', input: v.whole({ min: 1 }), csv: { header: 'car_id' } }),
  dateOfPurchase: field({
    type: 'dateTime',
    wire: 'DateOfPurchase',
    column: 'date_of_purchase',
    input: v.dateTime(),
    csv: { header: 'date', names: ['date', 'datum', 'date of purchase', 'dateofpurchase', 'purchase date', 'datum nakupu', 'datum tankovani', 'day', 'den'], required: true, words: 'date' },
  }),
  tachometer: field({
    type: 'integer',
    wire: 'Tachometer',
    column: 'tachometer',
    input: v.whole({ min: 0 }),
    csv: {
      header: 'odometer',
      names: ['odometer', 'tachometer', 'km', 'stav tachometru', 'tachometr', 'mileage', 'stav km', 'kilometers', 'kilometres', 'kilometry'],
      required: true,
      words: 'odometer',
    },
  }),
  liter: field({
    type: 'decimal',
    wire: 'Liter',
    column: 'liter',
    // Litres to the millilitre: what the service keeps (see src-service/README.md).
    input: v.decimal({ positive: true, maxScale: 3 }),
    csv: { header: 'liters', names: ['liters', 'litres', 'liter', 'litre', 'litry', 'litru', 'l', 'mnozstvi', 'objem', 'volume'], required: true, words: 'litres' },
  }),
  price: field({
    type: 'decimal',
    wire: 'Price',
    column: 'price',
    input: v.decimal({ nonNegative: true }),
    csv: { header: 'price', names: ['price', 'cena', 'total', 'total price', 'celkem', 'cena celkem', 'castka', 'amount', 'cost', 'naklady'], required: true, words: 'price' },
  }),
  currency: field({ type: 'currency', wire: 'Currency', column: 'currency', input: currency(), csv: { header: 'currency', names: ['currency', 'mena', 'cur', 'ccy'], words: 'currency' } }),
  rate: field({
    type: 'decimal',
    wire: 'Rate',
    column: 'rate',
    // An exchange rate to six decimals: what the service keeps.
    input: v.decimal({ positive: true, maxScale: 6 }),
    csv: { header: 'rate', names: ['rate', 'kurz', 'kurs', 'exchange rate', 'smenny kurz'], fallback: '1', words: 'rate' },
  }),
  partial: field({
    type: 'flag',
    column: 'partial',
    input: v.flag(),
    local: { fallback: false },
    csv: { header: 'partial', names: ['partial', 'castecne', 'castecna', 'partial fill', 'castecne natankovani', 'castecne tankovani'], fallback: false, words: 'partial' },
  }),
  description: field({
    type: 'text',
    wire: 'Description',
    column: 'description',
    input: v.text({ max: 1000 }),
    csv: { header: 'description', names: ['description', 'popis', 'note', 'notes', 'poznamka', 'poznamky', 'komentar', 'comment'], fallback: '', words: 'description' },
  }),
  id: field({ type: 'id', wire: 'Id', param: 'Id_CarFuel', column: 'id', csv: { header: 'id' } }),
  userCreatedId: field({ type: 'integer', wire: 'Id_UserCreated', column: 'user_created_id' }),
} as const;

export type RefuelingFieldName = keyof typeof REFUELING_FIELDS;
export type RefuelingValues = ValuesOf<typeof REFUELING_FIELDS>;
/** The fields the service keeps; the fields kept in this app only. */
export type RefuelingWireField = WireKey<typeof REFUELING_FIELDS>;
export type RefuelingLocalField = LocalKey<typeof REFUELING_FIELDS>;
/** The fields a CSV column can be mapped to in an import. */
export type RefuelingImportField = ImportKey<typeof REFUELING_FIELDS>;

export const REFUELING_WIRE_FIELDS = keysOf(REFUELING_FIELDS, (f) => f.wire !== undefined) as RefuelingWireField[];
export const REFUELING_LOCAL_FIELDS = keysOf(REFUELING_FIELDS, (f) => f.local !== undefined) as RefuelingLocalField[];
/** The fields a user writes that the service keeps: what a write sends, and what an edit merges. */
export const REFUELING_SENT_FIELDS = keysOf(REFUELING_FIELDS, (f) => f.wire !== undefined && f.input !== undefined) as Exclude<RefuelingWireField, 'id' | 'userCreatedId'>[];
export const REFUELING_IMPORT_FIELDS = keysOf(REFUELING_FIELDS, (f) => f.csv?.names !== undefined) as RefuelingImportField[];

/** What the outbox keeps of a refueling write: the fields sent. */
export type RefuelingWrite = Pick<RefuelingValues, (typeof REFUELING_SENT_FIELDS)[number]>;
/** The marks this app keeps of a refueling. */
export type RefuelingLocals = Pick<RefuelingValues, RefuelingLocalField>;

/** The input schema entries of a refueling write: the fields sent, and the local marks (optional: kept as they are when not given). */
export function refuelingInputEntries() {
  const entries: Record<string, unknown> = {};
  for (const k of REFUELING_SENT_FIELDS) entries[k] = REFUELING_FIELDS[k].input;
  for (const k of REFUELING_LOCAL_FIELDS) entries[k] = v.optional(REFUELING_FIELDS[k].input);
  return entries as { [K in (typeof REFUELING_SENT_FIELDS)[number]]: (typeof REFUELING_FIELDS)[K]['input'] } & {
    [K in RefuelingLocalField]: ReturnType<typeof v.optional<(typeof REFUELING_FIELDS)[K]['input']>>;
  };
}

/** A write's local marks apart from what it sends. */
export function splitRefueling<T extends Partial<RefuelingLocals>>(input: T): { sent: Omit<T, RefuelingLocalField>; locals: Partial<RefuelingLocals> } {
  const sent = { ...input } as Record<string, unknown>;
  const locals: Record<string, unknown> = {};
  for (const k of REFUELING_LOCAL_FIELDS) {
    if (k in sent) {
      if (sent[k] !== undefined) locals[k] = sent[k];
      delete sent[k];
    }
  }
  return { sent: sent as Omit<T, RefuelingLocalField>, locals: locals as Partial<RefuelingLocals> };
}

/** The marks of a refueling that has none set. */
export const REFUELING_LOCAL_DEFAULTS = Object.fromEntries(REFUELING_LOCAL_FIELDS.map((k) => [k, REFUELING_FIELDS[k].local.fallback])) as RefuelingLocals;
