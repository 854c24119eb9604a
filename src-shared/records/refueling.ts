/**
 * A refueling's fields (the service's apiCarFuel, and the marks this app keeps beside it), in the order
 * of the CSV export. To add a field the service does not have (a local one): a row here with `local`,
 * `input` and `csv`; a migration adding its column to refueling_marks (src-main/core/store/migrations.ts);
 * its label in cs and en (refueling.local.<name>, data.import.fields.<name>).
 */
import { v } from '../validate';
import { defineRecord, field, type ImportKey, type LocalKey, type Locals, type Sent, type Stored, type Values } from './fields';
import { currency, description } from './rules';

export const REFUELING = defineRecord('refueling', {
  carId: field({
    type: 'integer',
    wire: 'Id_Car',
    param: 'CarId',
    column: 'car_id',
    input: v.whole({ min: 1 }),
    words: 'car',
    option: 'car',
    csv: { header: 'car_id' },
  }),
  dateOfPurchase: field({
    type: 'dateTime',
    wire: 'DateOfPurchase',
    column: 'date_of_purchase',
    input: v.dateTime(),
    match: true,
    words: 'date',
    option: 'date',
    csv: {
      header: 'date',
      names: ['date', 'datum', 'date of purchase', 'dateofpurchase', 'purchase date', 'datum nakupu', 'datum tankovani', 'day', 'den'],
      required: true,
    },
  }),
  tachometer: field({
    type: 'integer',
    wire: 'Tachometer',
    column: 'tachometer',
    input: v.whole({ min: 0 }),
    match: true,
    words: 'odometer',
    csv: {
      header: 'odometer',
      names: [
        'odometer',
        'tachometer',
        'km',
        'stav tachometru',
        'tachometr',
        'mileage',
        'stav km',
        'kilometers',
        'kilometres',
        'kilometry',
      ],
      required: true,
    },
  }),
  liter: field({
    type: 'decimal',
    wire: 'Liter',
    column: 'liter',
    // Litres to the millilitre: what the service keeps (see src-service/README.md).
    input: v.decimal({ positive: true, maxScale: 3 }),
    match: true,
    words: 'litres',
    csv: {
      header: 'liters',
      names: ['liters', 'litres', 'liter', 'litre', 'litry', 'litru', 'l', 'mnozstvi', 'objem', 'volume'],
      required: true,
    },
  }),
  price: field({
    type: 'decimal',
    wire: 'Price',
    column: 'price',
    input: v.decimal({ nonNegative: true }),
    match: true,
    words: 'price',
    csv: {
      header: 'price',
      names: ['price', 'cena', 'total', 'total price', 'celkem', 'cena celkem', 'castka', 'amount', 'cost', 'naklady'],
      required: true,
    },
  }),
  currency: field({
    type: 'currency',
    wire: 'Currency',
    column: 'currency',
    input: currency(),
    match: true,
    csv: { header: 'currency', names: ['currency', 'mena', 'cur', 'ccy'] },
  }),
  rate: field({
    type: 'decimal',
    wire: 'Rate',
    column: 'rate',
    // An exchange rate to six decimals: what the service keeps.
    input: v.decimal({ positive: true, maxScale: 6 }),
    optional: { fallback: '1' },
    words: 'exchange rate',
    csv: { header: 'rate', names: ['rate', 'kurz', 'kurs', 'exchange rate', 'smenny kurz'] },
  }),
  partial: field({
    type: 'flag',
    column: 'partial',
    input: v.flag(),
    local: { fallback: false },
    words: 'partial fill',
    csv: {
      header: 'partial',
      names: ['partial', 'castecne', 'castecna', 'partial fill', 'castecne natankovani', 'castecne tankovani'],
    },
  }),
  description: field({
    type: 'text',
    wire: 'Description',
    column: 'description',
    input: description(),
    optional: { fallback: '' },
    csv: {
      header: 'description',
      names: ['description', 'popis', 'note', 'notes', 'poznamka', 'poznamky', 'komentar', 'comment'],
    },
  }),
  id: field({ type: 'id', wire: 'Id', param: 'Id_CarFuel', column: 'id', csv: { header: 'id' } }),
  userCreatedId: field({ type: 'integer', wire: 'Id_UserCreated', column: 'user_created_id' }),
});

export type RefuelingValues = Values<typeof REFUELING>;
/** A refueling as the service keeps it (and the local copy's refuelings table). */
export type RefuelingStored = Stored<typeof REFUELING>;
/** The marks this app keeps of a refueling. */
export type RefuelingLocals = Locals<typeof REFUELING>;
export type RefuelingLocalField = LocalKey<typeof REFUELING.fields>;
/** What the outbox keeps of a refueling write: the fields sent. */
export type RefuelingWrite = Sent<typeof REFUELING>;
/** The fields a CSV column can be mapped to in an import. */
export type RefuelingImportField = ImportKey<typeof REFUELING.fields>;
