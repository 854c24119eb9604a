/**
 * Fuel statistics of one car, computed from its refuelings and the local "partial fill" marks. Pure:
 * no store, no clock. The rules:
 *
 * - Order: oldest first by dateOfPurchase, then odometer (tachometer), then id.
 * - The statistics' currency is the one the car's refuelings with Rate 1 have (Rate 1 means the user's
 *   own currency): the most frequent, on a tie the one of the most recent such refueling. Without any
 *   refueling at Rate 1, the most frequent currency of all (same tie rule); without refuelings, the
 *   caller's fallback.
 * - cost of a refueling: its price when its currency is the statistics' currency, else price × Rate
 *   rounded half away from zero to the statistics' currency's minor units. pricePerLiter = cost / litres
 *   to 3 decimals.
 * - distance: odometer minus the previous refueling's odometer. The first refueling has none (note
 *   'first'); neither has one whose odometer is not above the previous reading (note
 *   'odometer-not-increasing'): that reading restarts everything, like a first refueling.
 * - Consumption is measured between full tanks. A chain starts at a full refueling that is a first
 *   one, a restart, or the one that closed the previous chain. Every later refueling adds its litres and
 *   cost to the chain; a partial one only carries them on; the next full one closes it: consumption =
 *   litres / (its odometer − the chain start's odometer) × 100 (2 decimals), cost per 100 km = cost / km
 *   × 100 (the currency's minor units). A chain broken by a restart before a full refueling is dropped.
 *   A partial refueling where a chain would start leaves the tank level unknown: the chain starts at
 *   the next full refueling instead.
 * - Summary: litres, cost and refuelings summed; distance = the sum of the distances; consumption =
 *   litres of the closed chains / their kilometres × 100 (weighted, not a mean of the chains' figures),
 *   cost per 100 km alike; pricePerLiter = total cost / total litres.
 * - Months, by the month of dateOfPurchase: refuelings, litres, cost and distance (each distance in
 *   its refueling's month), the consumption of the counted chains closed in the month (their litres /
 *   their kilometres × 100, weighted as the summary's) and the price per litre (cost / litres); months
 *   without a refueling between the first and the last are listed as 0 (consumption and price null).
 * - Fills: every one of the period, or a page of them (fillsOffset newer ones skipped, at most
 *   fillsLimit), oldest first either way; the figures are always those of the whole period.
 * - A period (inclusive dates) selects refuelings by the day of dateOfPurchase for the fills, months and
 *   summary, but the chains are followed through the whole history, so the first refueling in the
 *   period keeps its distance and the chain it closes.
 * - Readings that cannot be right are flagged and left out of the distance, consumption and cost per
 *   100 km (their litres and cost still count: the fuel was bought), unless `includeFlagged`:
 *   - an odometer reading that goes back below the one before while the next goes on from that one
 *     (or there is no next: the newest reading), or that is ahead of both next readings while they go on
 *     from the one before: a mistyped reading. Not a reset of the odometer, after which the readings go
 *     on from the lower value. Left out, it is passed over like a partial fill: its litres go into the
 *     chain around it and the next reading's distance is from the one before it;
 *   - a chain whose consumption is more than three times, or less than a third of, the median of all
 *     chains (with three chains or more).
 */
import type { FuelFill, FuelMonth, FuelStats, FuelSummary } from '../../../src-shared/app-api';
import { monthsFrom } from '../../../src-shared/calendar';
import {
  add,
  compare,
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
import type { ViewRefueling } from '../outbox/view-state';

export type FuelRecord = Pick<
  ViewRefueling,
  'id' | 'dateOfPurchase' | 'tachometer' | 'liter' | 'price' | 'currency' | 'rate' | 'description' | 'pending'
>;

export interface FuelStatsInput {
  carId: number;
  /** Count the readings flagged as impossible in the figures too. */
  includeFlagged?: boolean;
  refuelings: readonly FuelRecord[];
  /** Ids of refuelings marked as partial fills. */
  partial: ReadonlySet<number>;
  from?: string | null;
  to?: string | null;
  /** A page of the fills, counted from the newest; without a limit every fill. */
  fillsOffset?: number;
  fillsLimit?: number;
  /** The currency of a car without refuelings. */
  fallbackCurrency: number;
}

const ONE: Decimal = { units: 1n, scale: 0 };
const HUNDRED: Decimal = { units: 100n, scale: 0 };

const text = (d: Decimal): string => formatDecimal(normalize(d));
const decimal = (s: string): Decimal => parseDecimal(s) ?? ZERO;

/** Oldest first: date, then odometer, then id. */
export function oldestFirst(a: FuelRecord, b: FuelRecord): number {
  if (a.dateOfPurchase !== b.dateOfPurchase) return a.dateOfPurchase < b.dateOfPurchase ? -1 : 1;
  return a.tachometer - b.tachometer || a.id - b.id;
}

/** The currency every cost is given in (see the module's rules); `ordered` is oldest first. */
export function statisticsCurrency(ordered: readonly Pick<FuelRecord, 'rate' | 'currency'>[], fallback: number): number {
  const own = ordered.filter((r) => compare(decimal(r.rate), ONE) === 0);
  const pool = own.length > 0 ? own : ordered;
  const seen = new Map<number, { count: number; last: number }>();
  pool.forEach((r, index) => seen.set(r.currency, { count: (seen.get(r.currency)?.count ?? 0) + 1, last: index }));
  let best: { currency: number; count: number; last: number } | null = null;
  for (const [currency, s] of seen) {
    if (!best || s.count > best.count || (s.count === best.count && s.last > best.last)) best = { currency, ...s };
  }
  return best?.currency ?? fallback;
}

/** A closed chain: what the full refueling that closed it measured. */
interface Chain {
  liters: Decimal;
  cost: Decimal;
  km: number;
}

interface Computed {
  fill: FuelFill;
  liters: Decimal;
  cost: Decimal;
  chain: Chain | null;
}

/** Readings that do not fit between their neighbours (see the module's rules), by index in `ordered`. */
function implausibleOdometers(ordered: readonly FuelRecord[]): Set<number> {
  const out = new Set<number>();
  // The reading before is the last one not flagged: a mistake is no yardstick for the next reading.
  let before = ordered[0]?.tachometer ?? 0;
  for (let i = 1; i < ordered.length; i++) {
    const reading = ordered[i]!.tachometer;
    const after = ordered[i + 1]?.tachometer;
    const later = ordered[i + 2]?.tachometer;
    // Back below the reading before, while the next one goes on from that one (or there is no next).
    const back = reading <= before && (after === undefined || after > before);
    // Ahead of both next readings, which themselves go on from the reading before.
    const ahead = after !== undefined && later !== undefined && reading >= after && reading >= later && after > before;
    if (back || ahead) out.add(i);
    else before = reading;
  }
  return out;
}

/** Consumption more than three times, or less than a third of, the median of the chains (three or more). */
function implausibleChains(computed: readonly Computed[]): Set<Computed> {
  const chains = computed.filter((c) => c.chain !== null);
  const out = new Set<Computed>();
  if (chains.length < 3) return out;
  // Compared as litres × km' against litres' × km: exact, no division.
  const rate = (c: Computed) => ({ l: c.chain!.liters, km: BigInt(c.chain!.km) });
  const less = (a: Computed, b: Computed) => {
    const x = rate(a);
    const y = rate(b);
    return compare(multiply(x.l, { units: y.km, scale: 0 }), multiply(y.l, { units: x.km, scale: 0 }));
  };
  const sorted = [...chains].sort(less);
  const mid = Math.floor(sorted.length / 2);
  // The median as litres over km: the middle chain, or the mean of the two middle ones (a/b + c/d = (ad + cb) / bd).
  const [a, b] = sorted.length % 2 ? [sorted[mid]!, sorted[mid]!] : [sorted[mid - 1]!, sorted[mid]!];
  const medianLitres = add(multiply(rate(a).l, { units: rate(b).km, scale: 0 }), multiply(rate(b).l, { units: rate(a).km, scale: 0 }));
  const medianKm = 2n * rate(a).km * rate(b).km;
  for (const c of chains) {
    const { l, km } = rate(c);
    // c > 3m: l × medianKm > 3 × medianLitres × km; c < m/3: 3 × l × medianKm < medianLitres × km.
    const scaled = multiply(l, { units: medianKm, scale: 0 });
    const median = multiply(medianLitres, { units: km, scale: 0 });
    if (compare(scaled, multiply(median, { units: 3n, scale: 0 })) > 0 || compare(multiply(scaled, { units: 3n, scale: 0 }), median) < 0) {
      out.add(c);
    }
  }
  return out;
}

function per100Km(amount: Decimal, km: number, places: number): string {
  return text(divideRounded(multiply(amount, HUNDRED), { units: BigInt(km), scale: 0 }, places)!);
}

function ratio(amount: Decimal, by: Decimal, places: number): string | null {
  const q = divideRounded(amount, by, places);
  return q === null ? null : text(q);
}

export function fuelStats(input: FuelStatsInput): FuelStats {
  const ordered = [...input.refuelings].sort(oldestFirst);
  const currency = statisticsCurrency(ordered, input.fallbackCurrency);
  const digits = currencyDigits(currency);
  const include = input.includeFlagged ?? false;
  const computed = followChains(ordered, { currency, digits, include, partial: input.partial });
  for (const c of implausibleChains(computed)) {
    c.fill.flag = 'consumption';
    c.fill.counted = include;
  }

  const from = input.from ?? null;
  const to = input.to ?? null;
  const kept = computed.filter(({ fill }) => {
    const day = fill.dateOfPurchase.slice(0, 10);
    return (from === null || day >= from) && (to === null || day <= to);
  });
  return {
    carId: input.carId,
    currency,
    from,
    to,
    includeFlagged: include,
    flagged: kept.filter((c) => c.fill.flag !== null).length,
    summary: summaryOf(kept, digits),
    fills: pageOf(kept, input.fillsOffset ?? 0, input.fillsLimit).map((c) => c.fill),
    fillCount: kept.length,
    fillsOffset: input.fillsOffset ?? 0,
    months: monthsOf(kept),
  };
}

/** How the refuelings are read: the statistics' currency and its digits, the flagged readings counted or not, the partial fills. */
interface Reading {
  currency: number;
  digits: number;
  include: boolean;
  partial: ReadonlySet<number>;
}

/** What one refueling measured as the chains are followed. */
interface Step {
  liters: Decimal;
  cost: Decimal;
  partial: boolean;
  flagged: boolean;
  skipped: boolean;
  distance: number | null;
  chain: Chain | null;
  note: FuelFill['note'];
}

/** Every refueling, oldest first, with its distance and the chain it closes (see the module's rules). */
function followChains(ordered: readonly FuelRecord[], reading: Reading): Computed[] {
  const odometers = implausibleOdometers(ordered);
  let previous: number | null = null;
  // Odometer where the open chain started; null while waiting for a full tank to start one.
  let start: number | null = null;
  let open = { liters: ZERO, cost: ZERO };
  return ordered.map((r, index) => {
    const flagged = odometers.has(index);
    const skipped = flagged && !reading.include;
    const partial = reading.partial.has(r.id);
    const liters = decimal(r.liter);
    const cost = r.currency === reading.currency ? decimal(r.price) : roundTo(multiply(decimal(r.price), decimal(r.rate)), reading.digits);
    const step: Step = { liters, cost, partial, flagged, skipped, distance: null, chain: null, note: null };
    if (skipped) {
      // Passed over like a partial fill: the fuel went into the tank; its reading is not used.
      if (previous !== null && r.tachometer <= previous) step.note = 'odometer-not-increasing';
      if (start !== null) open = { liters: add(open.liters, liters), cost: add(open.cost, cost) };
    } else if (previous === null || r.tachometer <= previous) {
      step.note = previous === null ? 'first' : 'odometer-not-increasing';
      start = partial ? null : r.tachometer;
      open = { liters: ZERO, cost: ZERO };
    } else {
      step.distance = r.tachometer - previous;
      if (start === null) {
        if (!partial) start = r.tachometer;
      } else {
        open = { liters: add(open.liters, liters), cost: add(open.cost, cost) };
        if (!partial) {
          step.chain = { ...open, km: r.tachometer - start };
          start = r.tachometer;
          open = { liters: ZERO, cost: ZERO };
        }
      }
    }
    if (!skipped) previous = r.tachometer;
    return { liters, cost, chain: step.chain, fill: fillOf(r, step, reading.digits) };
  });
}

/** A refueling as the statistics list it. */
function fillOf(r: FuelRecord, step: Step, digits: number): FuelFill {
  const { chain } = step;
  return {
    id: r.id,
    dateOfPurchase: r.dateOfPurchase,
    tachometer: r.tachometer,
    liter: r.liter,
    price: r.price,
    currency: r.currency,
    rate: r.rate,
    cost: text(step.cost),
    pricePerLiter: ratio(step.cost, step.liters, 3),
    partial: step.partial,
    pending: r.pending,
    distance: step.distance,
    consumption: chain ? per100Km(chain.liters, chain.km, 2) : null,
    costPer100Km: chain ? per100Km(chain.cost, chain.km, digits) : null,
    note: step.note,
    flag: step.flagged ? 'odometer' : null,
    counted: !step.skipped,
  };
}

function summaryOf(kept: readonly Computed[], digits: number): FuelSummary {
  let liters = ZERO;
  let cost = ZERO;
  let distance = 0;
  const closed = { liters: ZERO, cost: ZERO, km: 0 };
  for (const c of kept) {
    liters = add(liters, c.liters);
    cost = add(cost, c.cost);
    distance += c.fill.distance ?? 0;
    if (c.chain && c.fill.counted) {
      closed.liters = add(closed.liters, c.chain.liters);
      closed.cost = add(closed.cost, c.chain.cost);
      closed.km += c.chain.km;
    }
  }
  return {
    refuelings: kept.length,
    liters: text(liters),
    cost: text(cost),
    distance,
    consumption: closed.km > 0 ? per100Km(closed.liters, closed.km, 2) : null,
    costPer100Km: closed.km > 0 ? per100Km(closed.cost, closed.km, digits) : null,
    pricePerLiter: kept.length > 0 ? ratio(cost, liters, 3) : null,
    firstDate: kept[0]?.fill.dateOfPurchase ?? null,
    lastDate: kept.at(-1)?.fill.dateOfPurchase ?? null,
  };
}

/** The fills `offset` newer ones before the newest of the page, at most `limit` (oldest first, as `kept`). */
function pageOf(kept: readonly Computed[], offset: number, limit: number | undefined): readonly Computed[] {
  if (limit === undefined && offset === 0) return kept;
  const end = Math.max(0, kept.length - offset);
  return kept.slice(limit === undefined ? 0 : Math.max(0, end - limit), end);
}

interface MonthSums {
  refuelings: number;
  liters: Decimal;
  cost: Decimal;
  distance: number;
  /** The counted chains closed in the month. */
  chains: Chain;
}

function monthsOf(kept: readonly Computed[]): FuelMonth[] {
  if (kept.length === 0) return [];
  const sums = new Map<string, MonthSums>();
  for (const c of kept) {
    const month = c.fill.dateOfPurchase.slice(0, 7);
    const m = sums.get(month) ?? { refuelings: 0, liters: ZERO, cost: ZERO, distance: 0, chains: { liters: ZERO, cost: ZERO, km: 0 } };
    const closes = c.chain && c.fill.counted ? c.chain : null;
    sums.set(month, {
      refuelings: m.refuelings + 1,
      liters: add(m.liters, c.liters),
      cost: add(m.cost, c.cost),
      distance: m.distance + (c.fill.distance ?? 0),
      chains: closes
        ? { liters: add(m.chains.liters, closes.liters), cost: add(m.chains.cost, closes.cost), km: m.chains.km + closes.km }
        : m.chains,
    });
  }
  return monthsFrom(kept[0]!.fill.dateOfPurchase, kept.at(-1)!.fill.dateOfPurchase).map((month) => {
    const m = sums.get(month);
    return {
      month,
      refuelings: m?.refuelings ?? 0,
      liters: text(m?.liters ?? ZERO),
      cost: text(m?.cost ?? ZERO),
      distance: m?.distance ?? 0,
      consumption: m && m.chains.km > 0 ? per100Km(m.chains.liters, m.chains.km, 2) : null,
      pricePerLiter: m ? ratio(m.cost, m.liters, 3) : null,
    };
  });
}
