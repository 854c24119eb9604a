/** Every fuel statistic against values computed by hand (worked out in the comments). */
import { describe, expect, it } from 'vitest';
import { fuelStats, statisticsCurrency, type FuelRecord } from '../../src-main/core/insights/fuel-stats';
import { SCALE, text, units } from '../support/decimal-oracle';
import { seededRandom } from '../support/fault-proxy';

const CZK = 203;
const EUR = 978;
const USD = 840;
const JPY = 392;

let nextId = 1;
function fill(dateOfPurchase: string, tachometer: number, liter: string, price: string, more: Partial<FuelRecord> = {}): FuelRecord {
  return {
    id: nextId++,
    dateOfPurchase: `${dateOfPurchase}T08:00:00`,
    tachometer,
    liter,
    price,
    currency: CZK,
    rate: '1',
    description: '',
    pending: false,
    ...more,
  };
}

const stats = (refuelings: FuelRecord[], partial: number[] = [], period: { from?: string; to?: string } = {}) =>
  fuelStats({ carId: 1, refuelings, partial: new Set(partial), fallbackCurrency: CZK, ...period });

describe('consumption between full tanks', () => {
  const a = [
    fill('2026-01-05', 10_000, '40', '1600'),
    fill('2026-01-20', 10_500, '35', '1435'),
    fill('2026-02-10', 11_100, '42.5', '1742.5'),
  ];

  it('measures each full tank against the one before', () => {
    const s = stats(a);
    expect(s.currency).toBe(CZK);
    expect(s.fills.map((f) => [f.note, f.distance, f.consumption, f.costPer100Km, f.cost, f.pricePerLiter])).toEqual([
      ['first', null, null, null, '1600', '40'],
      // 35 l / 500 km × 100 = 7; 1435 / 500 × 100 = 287; 1435 / 35 = 41
      [null, 500, '7', '287', '1435', '41'],
      // 42.5 / 600 × 100 = 7.0833 -> 7.08; 1742.5 / 600 × 100 = 290.4166 -> 290.42; 1742.5 / 42.5 = 41
      [null, 600, '7.08', '290.42', '1742.5', '41'],
    ]);
  });

  it('weights the summary by kilometres, not by chains', () => {
    expect(stats(a).summary).toEqual({
      refuelings: 3,
      liters: '117.5',
      cost: '4777.5',
      distance: 1100,
      // (35 + 42.5) / 1100 × 100 = 7.04545 -> 7.05 (a mean of 7 and 7.08 would give 7.04)
      consumption: '7.05',
      // (1435 + 1742.5) / 1100 × 100 = 288.8636 -> 288.86
      costPer100Km: '288.86',
      // 4777.5 / 117.5 = 40.65957 -> 40.660
      pricePerLiter: '40.66',
      firstDate: '2026-01-05T08:00:00',
      lastDate: '2026-02-10T08:00:00',
    });
  });

  it('sums months by the date of purchase, each distance in its own month', () => {
    expect(stats(a).months).toEqual([
      // Jan: the chain closed on the 20th, 35 l / 500 km × 100 = 7; 3035 / 75 = 40.4666 -> 40.467
      { month: '2026-01', refuelings: 2, liters: '75', cost: '3035', distance: 500, consumption: '7', pricePerLiter: '40.467' },
      // Feb: 42.5 / 600 × 100 = 7.0833 -> 7.08; 1742.5 / 42.5 = 41
      { month: '2026-02', refuelings: 1, liters: '42.5', cost: '1742.5', distance: 600, consumption: '7.08', pricePerLiter: '41' },
    ]);
  });

  it('follows the chains through the whole history and keeps only the period', () => {
    const s = stats(a, [], { from: '2026-02-01', to: '2026-02-28' });
    expect(s.from).toBe('2026-02-01');
    expect(s.fills.map((f) => [f.tachometer, f.distance, f.consumption])).toEqual([[11_100, 600, '7.08']]);
    expect(s.summary).toMatchObject({
      refuelings: 1,
      liters: '42.5',
      cost: '1742.5',
      distance: 600,
      consumption: '7.08',
      costPer100Km: '290.42',
    });
    expect(s.months.map((m) => m.month)).toEqual(['2026-02']);
    // Both bounds are inclusive days.
    expect(stats(a, [], { from: '2026-01-05', to: '2026-01-20' }).fills).toHaveLength(2);
    expect(stats(a, [], { from: '2026-03-01' }).summary).toMatchObject({
      refuelings: 0,
      liters: '0',
      distance: 0,
      consumption: null,
      pricePerLiter: null,
      firstDate: null,
    });
  });

  it('orders by date, then odometer, then id, whatever order it is given', () => {
    const sameDay = [
      fill('2026-03-01', 2_000, '10', '400'),
      fill('2026-03-01', 1_500, '20', '800'),
      fill('2026-02-01', 1_000, '30', '1200'),
    ];
    expect(stats(sameDay).fills.map((f) => f.tachometer)).toEqual([1_000, 1_500, 2_000]);
    const twins = [fill('2026-03-01', 1_000, '10', '400', { id: 90 }), fill('2026-03-01', 1_000, '20', '800', { id: 80 })];
    expect(stats(twins).fills.map((f) => f.id)).toEqual([80, 90]);
  });

  it('lists months without refuelings between the first and the last as zero', () => {
    const s = stats([fill('2026-01-10', 1_000, '40', '1600'), fill('2026-04-02', 1_900, '45', '1800')]);
    expect(s.months).toEqual([
      // The first fill closes no chain; 1600 / 40 = 40.
      { month: '2026-01', refuelings: 1, liters: '40', cost: '1600', distance: 0, consumption: null, pricePerLiter: '40' },
      { month: '2026-02', refuelings: 0, liters: '0', cost: '0', distance: 0, consumption: null, pricePerLiter: null },
      { month: '2026-03', refuelings: 0, liters: '0', cost: '0', distance: 0, consumption: null, pricePerLiter: null },
      // 45 l / 900 km × 100 = 5; 1800 / 45 = 40.
      { month: '2026-04', refuelings: 1, liters: '45', cost: '1800', distance: 900, consumption: '5', pricePerLiter: '40' },
    ]);
  });
});

describe('partial fills', () => {
  it('carry their litres and cost into the next full tank', () => {
    const list = [fill('2026-01-01', 1_000, '30', '1200'), fill('2026-01-10', 1_300, '10', '400'), fill('2026-01-20', 1_800, '25', '1000')];
    const s = stats(list, [list[1]!.id]);
    expect(s.fills.map((f) => [f.partial, f.distance, f.consumption, f.costPer100Km])).toEqual([
      [false, null, null, null],
      [true, 300, null, null],
      // (10 + 25) / 800 × 100 = 4.375 -> 4.38 (half away from zero); (400 + 1000) / 800 × 100 = 175
      [false, 500, '4.38', '175'],
    ]);
    expect(s.summary).toMatchObject({ consumption: '4.38', costPer100Km: '175', distance: 800, liters: '65', cost: '2600' });
  });

  it('at the start leave the tank level unknown: the chain starts at the next full tank', () => {
    const list = [fill('2026-01-01', 1_000, '15', '600'), fill('2026-01-10', 1_300, '20', '800'), fill('2026-01-20', 1_700, '24', '960')];
    const s = stats(list, [list[0]!.id]);
    // 24 / 400 × 100 = 6; the 20 l of the second fill only fill the tank up to a known level.
    expect(s.fills.map((f) => [f.note, f.distance, f.consumption])).toEqual([
      ['first', null, null],
      [null, 300, null],
      [null, 400, '6'],
    ]);
    expect(s.summary).toMatchObject({ consumption: '6', costPer100Km: '240', distance: 700 });
  });

  it('before an odometer reset are dropped with their chain', () => {
    const list = [
      fill('2026-01-01', 1_000, '30', '1200'),
      fill('2026-01-10', 1_400, '10', '400'),
      fill('2026-01-20', 500, '30', '1200'),
      fill('2026-01-30', 900, '20', '800'),
    ];
    const s = stats(list, [list[1]!.id]);
    expect(s.fills.map((f) => [f.note, f.distance, f.consumption])).toEqual([
      ['first', null, null],
      [null, 400, null],
      ['odometer-not-increasing', null, null],
      // 20 / 400 × 100 = 5; the 10 l of the dropped chain count nowhere.
      [null, 400, '5'],
    ]);
    expect(s.summary).toMatchObject({ consumption: '5', costPer100Km: '200', distance: 800 });
  });
});

describe('the odometer going backwards', () => {
  it('restarts the chain; the distance across it is left out', () => {
    const s = stats([
      fill('2026-01-01', 50_000, '40', '1600'),
      fill('2026-01-15', 50_600, '36', '1440'),
      fill('2026-02-01', 200, '30', '1200'),
      fill('2026-02-15', 700, '32', '1280'),
    ]);
    expect(s.fills.map((f) => [f.note, f.distance, f.consumption, f.costPer100Km])).toEqual([
      ['first', null, null, null],
      [null, 600, '6', '240'],
      ['odometer-not-increasing', null, null, null],
      // 32 / 500 × 100 = 6.4; 1280 / 500 × 100 = 256
      [null, 500, '6.4', '256'],
    ]);
    // (36 + 32) / 1100 × 100 = 6.1818 -> 6.18; (1440 + 1280) / 1100 × 100 = 247.2727 -> 247.27
    expect(s.summary).toMatchObject({ distance: 1100, consumption: '6.18', costPer100Km: '247.27' });
  });

  it('an equal reading counts as not increasing', () => {
    const s = stats([fill('2026-01-01', 1_000, '40', '1600'), fill('2026-01-02', 1_000, '5', '200')]);
    expect(s.fills[1]).toMatchObject({ note: 'odometer-not-increasing', distance: null, consumption: null });
  });
});

describe('a single refueling', () => {
  it('has litres, cost and price per litre, no distance and no consumption', () => {
    const s = stats([fill('2026-05-05', 123_456, '41.27', '1650.8', { pending: true, id: -3 })]);
    expect(s.fills).toEqual([
      expect.objectContaining({
        id: -3,
        pending: true,
        note: 'first',
        distance: null,
        consumption: null,
        costPer100Km: null,
        cost: '1650.8',
        pricePerLiter: '40',
      }),
    ]);
    // 1650.8 / 41.27 = 40.0000 exactly
    expect(s.summary).toEqual({
      refuelings: 1,
      liters: '41.27',
      cost: '1650.8',
      distance: 0,
      consumption: null,
      costPer100Km: null,
      pricePerLiter: '40',
      firstDate: '2026-05-05T08:00:00',
      lastDate: '2026-05-05T08:00:00',
    });
    expect(s.months).toEqual([
      { month: '2026-05', refuelings: 1, liters: '41.27', cost: '1650.8', distance: 0, consumption: null, pricePerLiter: '40' },
    ]);
  });

  it('and none: an empty summary in the fallback currency', () => {
    const s = fuelStats({ carId: 9, refuelings: [], partial: new Set(), fallbackCurrency: EUR });
    expect(s).toMatchObject({ carId: 9, currency: EUR, fills: [], months: [], from: null, to: null });
    expect(s.summary).toMatchObject({
      refuelings: 0,
      liters: '0',
      cost: '0',
      distance: 0,
      consumption: null,
      pricePerLiter: null,
      lastDate: null,
    });
  });
});

describe('currencies and rates', () => {
  it('costs a foreign refueling at its rate, rounded half away from zero to the minor unit', () => {
    const s = stats([
      fill('2026-06-01', 10_000, '40', '1600'),
      // 60.15 EUR × 25.3 = 1521.795 -> 1521.80 CZK
      fill('2026-06-10', 10_800, '45', '60.15', { currency: EUR, rate: '25.3' }),
      fill('2026-06-20', 11_400, '38', '1520'),
    ]);
    expect(s.currency).toBe(CZK);
    expect(s.fills.map((f) => [f.cost, f.pricePerLiter, f.costPer100Km])).toEqual([
      ['1600', '40', null],
      // 1521.8 / 45 = 33.8177 -> 33.818; 1521.8 / 800 × 100 = 190.225 -> 190.23
      ['1521.8', '33.818', '190.23'],
      // 1520 / 38 = 40; 1520 / 600 × 100 = 253.333 -> 253.33
      ['1520', '40', '253.33'],
    ]);
    expect(s.fills[1]).toMatchObject({ price: '60.15', currency: EUR, rate: '25.3' });
    // (1521.8 + 1520) / 1400 × 100 = 217.2714 -> 217.27; 4641.8 / 123 = 37.7382 -> 37.738
    expect(s.summary).toMatchObject({ cost: '4641.8', costPer100Km: '217.27', pricePerLiter: '37.738' });
  });

  it("rounds to the statistics currency's own minor units", () => {
    const yen = [
      fill('2026-01-01', 100, '30', '5000', { currency: JPY }),
      fill('2026-01-05', 600, '30.5', '50.5', { currency: USD, rate: '150.37' }),
    ];
    const s = stats(yen);
    expect(s.currency).toBe(JPY);
    // 50.5 × 150.37 = 7593.685 -> 7594 yen (no minor units); 7594 / 500 × 100 = 1518.8 -> 1519
    expect(s.fills[1]).toMatchObject({ cost: '7594', costPer100Km: '1519', consumption: '6.1' });
    const halfUp = stats([fill('2026-01-01', 100, '1', '0.5', { currency: USD, rate: '1.01' }), fill('2026-01-02', 200, '1', '1')]);
    // 0.5 × 1.01 = 0.505 -> 0.51 CZK (half away from zero, not to even)
    expect(halfUp.fills[0]!.cost).toBe('0.51');
  });

  it('picks the currency of Rate 1: the most frequent, on a tie the most recent, else the most frequent of all', () => {
    const at = (currency: number, rate: string, day: number) =>
      fill(`2026-01-${String(day).padStart(2, '0')}`, day * 100, '10', '100', { currency, rate });
    expect(statisticsCurrency([at(CZK, '1', 1), at(CZK, '1', 2), at(EUR, '1', 3)], USD)).toBe(CZK);
    expect(statisticsCurrency([at(CZK, '1', 1), at(EUR, '1', 2)], USD)).toBe(EUR);
    expect(statisticsCurrency([at(EUR, '1', 1), at(CZK, '1.000', 2), at(EUR, '24.5', 3), at(EUR, '25', 4)], USD)).toBe(CZK);
    expect(statisticsCurrency([at(EUR, '25', 1), at(USD, '22', 2), at(EUR, '24', 3)], CZK)).toBe(EUR);
    expect(statisticsCurrency([at(EUR, '25', 1), at(USD, '22', 2)], CZK)).toBe(USD);
    expect(statisticsCurrency([], JPY)).toBe(JPY);
  });

  it('takes a refueling in the statistics currency at its price even with another rate', () => {
    const s = stats([
      fill('2026-01-01', 100, '10', '400'),
      fill('2026-01-02', 300, '10', '400'),
      fill('2026-01-03', 500, '10', '333.33', { rate: '1.1' }),
    ]);
    expect(s.fills[2]!.cost).toBe('333.33');
  });
});

describe('readings that cannot be right', () => {
  const flagged = (refuelings: FuelRecord[], includeFlagged = false) =>
    fuelStats({ carId: 1, refuelings, partial: new Set(), fallbackCurrency: CZK, includeFlagged });

  it('a mistyped odometer between good readings is flagged and passed over like a partial fill', () => {
    const list = [
      fill('2026-03-01', 10_000, '40', '1600'),
      fill('2026-03-08', 10_500, '35', '1400'),
      fill('2026-03-15', 1_080, '20', '800'),
      fill('2026-03-22', 11_300, '30', '1200'),
      fill('2026-03-29', 11_800, '35', '1400'),
    ];
    const s = flagged(list);
    expect(s.fills.map((f) => [f.flag, f.counted, f.note, f.distance, f.consumption])).toEqual([
      [null, true, 'first', null, null],
      [null, true, null, 500, '7'],
      // Below the reading before it, where the one after is above that one: a typo, left out.
      ['odometer', false, 'odometer-not-increasing', null, null],
      // Its 20 l went into the tank: (20 + 30) l over 11,300 - 10,500 = 800 km: 6.25 l/100 km.
      [null, true, null, 800, '6.25'],
      [null, true, null, 500, '7'],
    ]);
    // 120 l over 1,800 km: 6.666 -> 6.67; every litre and crown still counts in the totals.
    expect(s.summary).toMatchObject({ distance: 1800, consumption: '6.67', liters: '160', cost: '6400', refuelings: 5 });
    expect(s).toMatchObject({ flagged: 1, includeFlagged: false });

    // Counted after all, it restarts everything as an odometer reset would, and distorts the figures.
    const all = flagged(list, true);
    expect(all.fills.map((f) => [f.flag, f.counted, f.distance, f.consumption])).toEqual([
      [null, true, null, null],
      [null, true, 500, '7'],
      ['odometer', true, null, null],
      // 30 l over 10,220 km: 0.29 l/100 km, far below the median of 7: flagged too, counted as asked.
      ['consumption', true, 10_220, '0.29'],
      [null, true, 500, '7'],
    ]);
    // 100 l over 11,220 km: 0.89 l/100 km.
    expect(all.summary).toMatchObject({ distance: 11_220, consumption: '0.89' });
    expect(all).toMatchObject({ flagged: 2, includeFlagged: true });
  });

  it('a reading too far ahead of the next one, and the newest one going back, are flagged', () => {
    const ahead = flagged([
      fill('2026-01-01', 10_000, '40', '1600'),
      fill('2026-01-08', 10_500, '35', '1400'),
      fill('2026-01-15', 105_000, '35', '1400'),
      fill('2026-01-22', 11_000, '35', '1400'),
      fill('2026-01-29', 11_500, '35', '1400'),
    ]);
    expect(ahead.fills.map((f) => f.flag)).toEqual([null, null, 'odometer', null, null]);
    // (35 + 35) l over 11,000 - 10,500 = 500 km: 14 l/100 km (the flagged fill's litres carried).
    expect(ahead.fills[3]).toMatchObject({ distance: 500, consumption: '14' });
    const back = flagged([
      fill('2026-01-01', 10_000, '40', '1600'),
      fill('2026-01-08', 10_500, '35', '1400'),
      fill('2026-01-15', 10_400, '35', '1400'),
    ]);
    expect(back.fills[2]).toMatchObject({ flag: 'odometer', counted: false, note: 'odometer-not-increasing', distance: null });
    expect(back.summary).toMatchObject({ distance: 500, consumption: '7' });
    // Between two readings that disagree, the one going back is the one flagged.
    expect(
      flagged([
        fill('2026-01-01', 10_000, '40', '1600'),
        fill('2026-01-08', 10_500, '35', '1400'),
        fill('2026-01-15', 10_400, '35', '1400'),
        fill('2026-01-22', 10_900, '35', '1400'),
      ]).fills.map((f) => f.flag),
    ).toEqual([null, null, 'odometer', null]);
    // A reset of the odometer (the readings go on from the lower value) is no mistake: nothing flagged.
    expect(
      flagged([
        fill('2026-01-01', 50_000, '40', '1600'),
        fill('2026-01-15', 50_600, '36', '1440'),
        fill('2026-02-01', 200, '30', '1200'),
        fill('2026-02-15', 700, '32', '1280'),
      ]).flagged,
    ).toBe(0);
  });

  it('a chain beyond three times the median consumption is left out of the consumption and cost per 100 km', () => {
    const list = [
      fill('2026-04-01', 10_000, '40', '1600'),
      fill('2026-04-08', 10_500, '35', '1400'),
      fill('2026-04-15', 11_000, '36', '1440'),
      fill('2026-04-22', 11_500, '34', '1360'),
      fill('2026-04-29', 12_000, '150', '6000'),
    ];
    const s = flagged(list);
    // Chains of 7, 7.2, 6.8 and 30 l/100 km: the median is (7 + 7.2) / 2 = 7.1, and 30 > 21.3.
    expect(s.fills.map((f) => [f.consumption, f.flag, f.counted])).toEqual([
      [null, null, true],
      ['7', null, true],
      ['7.2', null, true],
      ['6.8', null, true],
      ['30', 'consumption', false],
    ]);
    // (35 + 36 + 34) l over 1,500 km = 7; (1400 + 1440 + 1360) over 1,500 km × 100 = 280. The distance stays whole.
    expect(s.summary).toMatchObject({ consumption: '7', costPer100Km: '280', distance: 2000 });
    // Counted: 255 l over 2,000 km = 12.75.
    expect(flagged(list, true).summary).toMatchObject({ consumption: '12.75', distance: 2000 });
    // With fewer than three chains there is no median to stand out from.
    expect(flagged(list.slice(0, 3)).flagged).toBe(0);
  });
});

describe('600 fills', () => {
  // Six hundred fills over ten years, some partial, against an oracle of their own (test/support/decimal-oracle.ts): each
  // month's litres, cost, consumption of the chains closed in it and price per litre, exact.
  const random = seededRandom(600);
  let odometer = 50_000;
  const many: FuelRecord[] = [];
  for (let n = 0; n < 600; n++) {
    odometer += 300 + Math.floor(random() * 400);
    const day = new Date(Date.UTC(2016, 0, 1) + n * 6 * 86_400_000).toISOString().slice(0, 10);
    const litres = `${30 + Math.floor(random() * 15)}.${Math.floor(random() * 100)}`;
    many.push(fill(day, odometer, litres, `${Math.floor(random() * 2000) + 1000}.${Math.floor(random() * 10)}`));
  }
  const partial = many.filter((_, n) => n % 7 === 3).map((r) => r.id);

  /** Half away from zero to `places` decimals, of numerator / denominator (both positive, in oracle units). */
  const quotient = (numerator: bigint, denominator: bigint, places: number): string => {
    const scaled = (numerator * 10n ** BigInt(places) * 2n + denominator) / (2n * denominator);
    return text(scaled * 10n ** BigInt(SCALE - places));
  };
  function expectedMonths() {
    const months = new Map<string, { refuelings: number; liters: bigint; cost: bigint; chainLiters: bigint; km: bigint }>();
    let start: number | null = null;
    let open = 0n;
    for (const r of many) {
      const month = r.dateOfPurchase.slice(0, 7);
      const m = months.get(month) ?? { refuelings: 0, liters: 0n, cost: 0n, chainLiters: 0n, km: 0n };
      m.refuelings++;
      m.liters += units(r.liter);
      m.cost += units(r.price);
      if (start === null) start = r.tachometer;
      else {
        open += units(r.liter);
        if (!partial.includes(r.id)) {
          m.chainLiters += open;
          m.km += BigInt(r.tachometer - start);
          start = r.tachometer;
          open = 0n;
        }
      }
      months.set(month, m);
    }
    return [...months].map(([month, m]) => ({
      month,
      refuelings: m.refuelings,
      liters: text(m.liters),
      cost: text(m.cost),
      consumption: m.km > 0n ? quotient(m.chainLiters * 100n, m.km * 10n ** BigInt(SCALE), 2) : null,
      pricePerLiter: quotient(m.cost, m.liters, 3),
    }));
  }

  it('aggregate by month exactly as an independent oracle does', () => {
    const s = stats(many, partial);
    expect(s.flagged).toBe(0);
    expect(s.months.filter((m) => m.refuelings > 0).map(({ distance: _d, ...m }) => m)).toEqual(expectedMonths());
    expect(s.months).toHaveLength(119);
  });

  it('send a page of the fills, counted from the newest, with the figures of them all', () => {
    const all = stats(many, partial);
    const page = fuelStats({
      carId: 1,
      refuelings: many,
      partial: new Set(partial),
      fallbackCurrency: CZK,
      fillsOffset: 50,
      fillsLimit: 50,
    });
    expect(page.fillCount).toBe(600);
    expect(page.fillsOffset).toBe(50);
    expect(page.fills).toEqual(all.fills.slice(500, 550));
    expect(page.summary).toEqual(all.summary);
    expect(page.months).toEqual(all.months);
    const last = fuelStats({
      carId: 1,
      refuelings: many,
      partial: new Set(partial),
      fallbackCurrency: CZK,
      fillsOffset: 580,
      fillsLimit: 50,
    });
    expect(last.fills).toEqual(all.fills.slice(0, 20));
    expect(all.fills).toHaveLength(600);
    expect(all.fillCount).toBe(600);
  });
});
