/**
 * A car's cost besides its refuelings (service, tyres, insurance, tolls and vignettes, parking, repairs...):
 * kept on this computer only. The service has no such record, so none of its fields has a wire name and no
 * write of it is ever queued; the local copy keeps it in its own table (car_costs), carried by backups and
 * safety copies. To add a field: a row here, a column of car_costs (a migration in
 * src-main/core/store/migrations.ts), its label in cs and en (carCosts.fields.<name>).
 */
import { v } from '../validate';
import { defineRecord, field, type Sent, type Stored } from './fields';
import { currency, description } from './rules';

/** What a cost is for; fuel is not among them (that is the refuelings'). */
export const CAR_COST_KINDS = ['service', 'tyres', 'insurance', 'tolls', 'parking', 'repairs', 'other'] as const;
export type CarCostKind = (typeof CAR_COST_KINDS)[number];

export const CAR_COST = defineRecord('carCost', {
  carId: field({ type: 'integer', column: 'car_id', input: v.whole({ min: 1 }), words: 'car', option: 'car', csv: { header: 'car_id' } }),
  date: field({
    type: 'date',
    column: 'date',
    input: v.date(),
    words: 'day of the cost',
    csv: { header: 'date', names: ['date', 'datum', 'day', 'den'], required: true },
  }),
  kind: field({
    type: 'text',
    column: 'kind',
    input: v.oneOf(...CAR_COST_KINDS),
    words: `kind: ${CAR_COST_KINDS.join(', ')}`,
    csv: { header: 'kind', names: ['kind', 'type', 'druh', 'typ', 'category', 'kategorie'], required: true },
  }),
  // Not every cost comes with a reading (insurance, a vignette): null then.
  odometer: field({
    type: 'integer',
    column: 'odometer',
    input: v.optional(v.nullable(v.whole({ min: 0 })), null),
    nullable: true,
    words: 'odometer reading, km',
    csv: { header: 'odometer', names: ['odometer', 'tachometer', 'km', 'stav tachometru', 'tachometr', 'mileage', 'stav km'] },
  }),
  amount: field({
    type: 'decimal',
    column: 'amount',
    input: v.decimal({ nonNegative: true }),
    csv: { header: 'amount', names: ['amount', 'castka', 'cena', 'price', 'total', 'celkem', 'cost', 'naklady'], required: true },
  }),
  currency: field({
    type: 'currency',
    column: 'currency',
    input: currency(),
    csv: { header: 'currency', names: ['currency', 'mena', 'ccy'] },
  }),
  // As a refueling's: the amount times the rate is the cost in the car's own currency (see core/cars/car-costs.ts).
  rate: field({
    type: 'decimal',
    column: 'rate',
    input: v.decimal({ positive: true, maxScale: 6 }),
    optional: { fallback: '1' },
    words: 'exchange rate',
    csv: { header: 'rate', names: ['rate', 'kurz', 'kurs', 'exchange rate'] },
  }),
  note: field({
    type: 'text',
    column: 'note',
    input: description(),
    optional: { fallback: '' },
    csv: { header: 'note', names: ['note', 'notes', 'description', 'popis', 'poznamka', 'poznamky'] },
  }),
  id: field({ type: 'id', column: 'id', csv: { header: 'id' } }),
});

/** A car cost as the local copy keeps it (its kind one of the kinds: the table's CHECK holds it). */
export type CarCostStored = Omit<Stored<typeof CAR_COST>, 'kind'> & { kind: CarCostKind };
/** What a new cost, or an edit of one, is written with. */
export type CarCostWrite = Omit<Sent<typeof CAR_COST>, 'kind'> & { kind: CarCostKind };
