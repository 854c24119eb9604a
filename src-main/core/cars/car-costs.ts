/**
 * The whole cost of a car over a period: its refuelings (fuel) and its other costs, by kind, by month, per
 * kilometre and per month. Exact decimals throughout (src-shared/money).
 *
 * - One currency: the one most of the car's refuelings and costs have at rate 1 (as the fuel statistics
 *   choose theirs, insights/fuel-stats.ts). A record in another currency counts as its amount times its
 *   rate, rounded half away from zero to the currency's minor units.
 * - The period: `from` to `to`, both days included; without `from`, from the earliest record; without
 *   `to`, to today (or to the latest record's day, when one is dated later). A record counts by its day.
 * - Months: the calendar months from the month of `from` to that of `to`, both counted: a car kept from
 *   15 January to 3 March is three months. Per month: the total / months, to the currency's minor units.
 * - Distance: the highest reading minus the lowest among the period's refuelings and the costs that have one;
 *   none with fewer than two readings. Per kilometre: the total / distance, to the minor units and two places
 *   more (4.5213 CZK/km).
 */
import type { CarWholeCost, CostMonth, CostSplit, KindTotal } from '../../../src-shared/app-api';
import { monthsFrom } from '../../../src-shared/calendar';
import {
  add,
  currencyDigits,
  divideRounded,
  formatDecimal,
  multiply,
  normalize,
  parseDecimal,
  roundTo,
  ZERO,
  type Decimal,
} from '../../../src-shared/money';
import { CAR_COST_KINDS, type CarCostStored } from '../../../src-shared/records/car-cost';
import { statisticsCurrency, type FuelRecord } from '../insights/fuel-stats';

export interface WholeCostInput {
  carId: number;
  refuelings: readonly Pick<FuelRecord, 'dateOfPurchase' | 'tachometer' | 'price' | 'currency' | 'rate'>[];
  costs: readonly CarCostStored[];
  from?: string | undefined;
  to?: string | undefined;
  today: string;
  /** The currency of a car without records. */
  fallbackCurrency: number;
}

/** A record as the figures count it: its day, its cost in the figures' currency, its reading, and what it is. */
interface Counted {
  date: string;
  cost: Decimal;
  reading: number | null;
  kind: KindTotal['kind'];
}

const text = (d: Decimal): string => formatDecimal(normalize(d));
const decimal = (s: string): Decimal => parseDecimal(s) ?? ZERO;

/** An amount in the figures' currency: as it is in that currency, else times its rate, to the currency's minor units. */
export function costIn(amount: string, currency: number, rate: string, target: number, digits: number): Decimal {
  return currency === target ? decimal(amount) : roundTo(multiply(decimal(amount), decimal(rate)), digits);
}

class Split {
  fuel = ZERO;
  other = ZERO;
  add(c: Counted): void {
    if (c.kind === 'fuel') this.fuel = add(this.fuel, c.cost);
    else this.other = add(this.other, c.cost);
  }
  get total(): Decimal {
    return add(this.fuel, this.other);
  }
  view(): CostSplit {
    return { fuel: text(this.fuel), other: text(this.other), total: text(this.total) };
  }
  /** Each part divided by `by` to `places` decimals; null when `by` is 0. */
  per(by: number, places: number): CostSplit | null {
    const d: Decimal = { units: BigInt(by), scale: 0 };
    const part = (x: Decimal) => divideRounded(x, d, places);
    const [fuel, other, total] = [part(this.fuel), part(this.other), part(this.total)];
    return fuel && other && total ? { fuel: text(fuel), other: text(other), total: text(total) } : null;
  }
}

function counted(input: WholeCostInput, currency: number, digits: number): Counted[] {
  const fuel = input.refuelings.map((r): Counted => ({
    date: r.dateOfPurchase.slice(0, 10),
    cost: costIn(r.price, r.currency, r.rate, currency, digits),
    reading: r.tachometer,
    kind: 'fuel',
  }));
  const other = input.costs.map((c): Counted => ({
    date: c.date,
    cost: costIn(c.amount, c.currency, c.rate, currency, digits),
    reading: c.odometer,
    kind: c.kind,
  }));
  return [...fuel, ...other].filter((c) => (!input.from || c.date >= input.from) && (!input.to || c.date <= input.to));
}

function byKind(records: readonly Counted[]): KindTotal[] {
  return (['fuel', ...CAR_COST_KINDS] as const).map((kind) => {
    const of = records.filter((r) => r.kind === kind);
    return { kind, total: text(of.reduce((s, r) => add(s, r.cost), ZERO)), count: of.length };
  });
}

function byMonth(records: readonly Counted[], from: string | null, to: string): CostMonth[] {
  if (from === null) return [];
  const months = new Map(monthsFrom(from, to).map((m) => [m, new Split()]));
  for (const r of records) months.get(r.date.slice(0, 7))?.add(r);
  return [...months].map(([month, split]) => ({ month, ...split.view() }));
}

/** The records' currencies and rates, oldest first (the currency's rule takes the latest on a tie). */
function oldestFirst(input: WholeCostInput): Pick<FuelRecord, 'rate' | 'currency'>[] {
  const all = [
    ...input.refuelings.map((r) => ({ date: r.dateOfPurchase.slice(0, 10), rate: r.rate, currency: r.currency })),
    ...input.costs.map((c) => ({ date: c.date, rate: c.rate, currency: c.currency })),
  ];
  return all.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** A car's whole cost over the period (see the module's rules). */
export function wholeCost(input: WholeCostInput): CarWholeCost {
  const currency = statisticsCurrency(oldestFirst(input), input.fallbackCurrency);
  const digits = currencyDigits(currency);
  const records = counted(input, currency, digits);
  const earliest = records.reduce<string | null>((min, r) => (min === null || r.date < min ? r.date : min), null);
  const latest = records.reduce((max, r) => (r.date > max ? r.date : max), input.today);
  const to = input.to ?? latest;
  const from = input.from ?? earliest;
  const months = from === null || from > to ? 0 : monthsFrom(from, to).length;
  const readings = records.flatMap((r) => (r.reading === null ? [] : [r.reading]));
  // A loop, not Math.max(...readings): years of records would overflow the call's arguments.
  let [low, high] = [Infinity, -Infinity];
  for (const km of readings) [low, high] = [Math.min(low, km), Math.max(high, km)];
  const distance = readings.length < 2 ? null : high - low;
  const totals = new Split();
  for (const r of records) totals.add(r);
  return {
    carId: input.carId,
    currency,
    from,
    to,
    months,
    distance,
    totals: totals.view(),
    byKind: byKind(records),
    perKm: distance ? totals.per(distance, digits + 2) : null,
    perMonth: records.length > 0 && months > 0 ? totals.per(months, digits) : null,
    byMonth: byMonth(records, from, to),
    costs: input.costs.filter((c) => (!input.from || c.date >= input.from) && (!input.to || c.date <= input.to)),
  };
}
