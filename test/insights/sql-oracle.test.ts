/**
 * Reports and search, computed in SQL, against an independent oracle on random data: every stored
 * and pending transaction summed here with BigInts, filtered and ordered by the documented rules. Random
 * periods (daily, months cut at both ends, whole months), random filters, amounts that SQL sums as
 * integers and amounts it cannot (more than 4 decimals, beyond 10^14).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryReport, SearchResult } from '../../src-shared/app-api';
import { cents, text, units } from '../support/decimal-oracle';
import { seededRandom } from '../support/fault-proxy';
import { testSeed } from '../support/seed';
import { seededCore, type SeededCore, type TransactionSeed } from './local-data';

const CZK = 203;
const EUR = 978;
const random = seededRandom(testSeed('SQL_ORACLE_SEED', 1918));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

// ---- the oracle's own arithmetic and rules -------------------------------------------------------------

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

// ---- random data ----------------------------------------------------------------------------------------

const accounts = [
  { id: 1, name: 'Current', currency: CZK, balance: '1000.5' },
  { id: 2, name: 'Savings', currency: CZK, balance: '-20', isHidden: true },
  { id: 3, name: 'Closed', currency: CZK, balance: '0', isActive: false },
  { id: 4, name: 'Euro', currency: EUR, balance: '3.25' },
];
const categories = [
  { id: 10, name: 'Auto', parentId: 0 },
  { id: 11, name: 'Benzín', parentId: 10 },
  { id: 111, name: 'Natural 95', parentId: 11 },
  { id: 20, name: 'Jídlo', parentId: 0 },
  { id: 21, name: 'Restaurace', parentId: 20 },
  { id: 30, name: 'Plat', parentId: 0 },
];
const parentOf = new Map(categories.map((c) => [c.id, c.parentId]));
const topOf = (id: number): number => {
  let top = id;
  for (let guard = 0; parentOf.get(top) && guard < 10; guard++) top = parentOf.get(top)!;
  return top;
};
const words = ['Benzín Shell', 'BENZINA', 'Oběd', 'Rohlík', 'Nájem 2026', 'plat', 'Škoda', 'Café'];

function amount(): string {
  const roll = random();
  if (roll < 0.02) return `${random() < 0.5 ? '-' : ''}1${'0'.repeat(15)}.25`;
  if (roll < 0.05) return `${random() < 0.5 ? '-' : ''}${between(0, 99)}.${String(between(1, 99999)).padStart(5, '0')}`;
  if (roll < 0.07) return '0';
  return cents(between(-90_000, 60_000));
}

function date(): string {
  const y = pick([2024, 2025, 2026]);
  const m = between(1, 12);
  return `${y}-${pad(m)}-${pad(between(1, lastDay(y, m)))}T${pad(between(0, 23))}:${pad(between(0, 59))}:00`;
}

const seeds: TransactionSeed[] = [];
for (let n = 1; n <= 1500; n++) {
  seeds.push({
    id: n * 3 + between(0, 2),
    accountId: pick([1, 1, 2, 3, 4]),
    paymentDate: date(),
    amount: amount(),
    description: pick(words),
    categoryId: pick([0, 10, 11, 111, 20, 21, 30, 999]),
    type: pick([1, 2, 2, 3]),
  });
}

// Rows on the first and last days of months, where the periods below are cut.
for (const [n, paymentDate] of [
  '2025-04-01T00:00:00',
  '2026-01-01T10:00:00',
  '2024-01-31T23:59:59',
  '2025-05-31T12:00:00',
  '2025-07-31T23:59:59',
].entries()) {
  seeds.push({ id: 10_000 + n, accountId: 1, paymentDate, amount: `-${n + 1}.5`, description: 'Edge', categoryId: 21, type: 2 });
}

let local: SeededCore;

interface Row {
  id: number;
  accountId: number;
  paymentDate: string;
  type: number;
  amount: string;
  description: string;
  categoryId: number;
  pending: boolean;
}
let rows: Row[] = [];
const shown = new Map<number, bigint>();

beforeAll(async () => {
  local = seededCore({ accounts, categories, transactions: seeds });
  for (let n = 0; n < 8; n++) {
    const [sourceId, targetId] = pick([
      [1, 2],
      [2, 1],
    ] as const);
    await local.core.transfer({
      sourceId,
      targetId,
      amount: `${between(1, 500)}.${between(0, 9)}`,
      paymentDate: date().slice(0, 16),
      categoryId: pick([0, 11, 21]),
      description: pick(words),
    });
  }
  rows = seeds.map((s) => ({
    id: s.id!,
    accountId: s.accountId,
    paymentDate: s.paymentDate,
    type: s.type!,
    amount: s.amount,
    description: s.description!,
    categoryId: s.categoryId!,
    pending: false,
  }));
  for (const a of accounts) shown.set(a.id, units(a.balance));
  for (const e of await local.core.listOutbox()) {
    const i = e.input as {
      sourceId: number;
      targetId: number;
      amount: string;
      paymentDate: string;
      categoryId: number;
      description: string;
    };
    for (const [accountId, id, sign] of [
      [i.sourceId, e.targetId!, -1n],
      [i.targetId, e.targetId! - 1, 1n],
    ] as const) {
      const signed = text(sign * units(i.amount));
      rows.push({
        id,
        accountId,
        paymentDate: `${i.paymentDate}`,
        type: 3,
        amount: signed,
        description: i.description,
        categoryId: i.categoryId,
        pending: true,
      });
      shown.set(accountId, shown.get(accountId)! + units(signed));
    }
  }
});
afterAll(() => local.done());

// ---- reports ------------------------------------------------------------------------------------------

interface Flow {
  income: bigint;
  expense: bigint;
  count: number;
}
const flow = (): Flow => ({ income: 0n, expense: 0n, count: 0 });
const addTo = (f: Flow, v: bigint) => {
  if (v > 0n) f.income += v;
  else f.expense -= v;
  f.count++;
};
const view = (f: Flow) => ({ income: text(f.income), expense: text(f.expense), net: text(f.income - f.expense), count: f.count });

function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (
    let y = Number(from.slice(0, 4)), m = Number(from.slice(5, 7));
    `${y}-${pad(m)}` <= to.slice(0, 7);
    m === 12 ? (y++, (m = 1)) : m++
  ) {
    out.push(`${y}-${pad(m)}`);
  }
  return out;
}
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

function oracleReport(from: string, to: string, currency: number, includeTransfers: boolean) {
  const ids = accounts.filter((a) => a.currency === currency).map((a) => a.id);
  const months = monthsOf(from, to);
  const daily = daysOf(from, to).length - 1 < 62;
  const points = daily
    ? daysOf(from, to)
    : months.map((m) =>
        `${m}-${pad(lastDay(Number(m.slice(0, 4)), Number(m.slice(5, 7))))}` < to
          ? `${m}-${pad(lastDay(Number(m.slice(0, 4)), Number(m.slice(5, 7))))}`
          : to,
      );
  const total = flow();
  const byMonth = months.map(flow);
  const byCategory = new Map<number, { total: Flow; months: Flow[] }>();
  for (const r of rows) {
    if (!ids.includes(r.accountId)) continue;
    const day = r.paymentDate.slice(0, 10);
    if (day < from || day > to) continue;
    if (r.type === 3 && !includeTransfers) continue;
    const v = units(r.amount);
    const m = months.indexOf(day.slice(0, 7));
    addTo(total, v);
    addTo(byMonth[m]!, v);
    const top = topOf(r.categoryId);
    if (!byCategory.has(top)) byCategory.set(top, { total: flow(), months: months.map(flow) });
    addTo(byCategory.get(top)!.total, v);
    addTo(byCategory.get(top)!.months[m]!, v);
  }
  const cats = [...byCategory]
    .map(([categoryId, f]) => ({
      categoryId,
      name: categories.find((c) => c.id === categoryId)?.name ?? null,
      ...view(f.total),
      byMonth: f.months.map(view),
      // This copy has no budgets (test/client/budgets.test.ts checks them against an oracle of its own).
      budget: null,
      e: f.total.expense,
      i: f.total.income,
    }))
    .sort((a, b) => (a.e !== b.e ? (b.e > a.e ? 1 : -1) : a.i !== b.i ? (b.i > a.i ? 1 : -1) : a.categoryId - b.categoryId))
    .map(({ e: _e, i: _i, ...c }) => c);
  const balances = ids.map((id) => ({
    accountId: id,
    points: points.map((p) => {
      let b = shown.get(id)!;
      for (const r of rows) if (r.accountId === id && r.paymentDate.slice(0, 10) > p) b -= units(r.amount);
      return { date: p, balance: text(b) };
    }),
  }));
  return { months, total: view(total), byMonth: byMonth.map(view), categories: cats, balances };
}

function randomPeriod(): { from: string; to: string } {
  const kind = random();
  if (kind < 0.3) {
    const start = date().slice(0, 10);
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + between(0, 61) * 86_400_000).toISOString().slice(0, 10);
    return { from: start, to: end };
  }
  const a = date().slice(0, 10);
  const b = date().slice(0, 10);
  const [from, to] = a < b ? [a, b] : [b, a];
  if (kind < 0.5) {
    return { from: `${from.slice(0, 7)}-01`, to: `${to.slice(0, 7)}-${pad(lastDay(Number(to.slice(0, 4)), Number(to.slice(5, 7))))}` };
  }
  return { from, to };
}

describe('reports in SQL', () => {
  it('equal the oracle on random periods, currencies and transfer choices', async () => {
    const periods = [
      { from: '2024-01-01', to: '2026-12-31' },
      { from: '2025-03-31', to: '2025-04-01' },
      { from: '2024-02-29', to: '2024-02-29' },
      { from: '2024-01-31', to: '2025-04-01' },
      { from: '2024-06-01', to: '2026-01-01' },
      { from: '2025-05-31', to: '2025-07-31' },
      ...Array.from({ length: 40 }, randomPeriod),
    ];
    for (const p of periods) {
      for (const currency of [CZK, EUR]) {
        const includeTransfers = random() < 0.5;
        const got: CategoryReport = await local.core.getReport({ ...p, currency, includeTransfers });
        const want = oracleReport(p.from, p.to, currency, includeTransfers);
        const label = `${p.from}..${p.to} ${currency} transfers:${includeTransfers}`;
        expect(got.months, label).toEqual(want.months);
        expect(got.total, label).toEqual(want.total);
        expect(got.byMonth, label).toEqual(want.byMonth);
        expect(got.categories, label).toEqual(want.categories);
        expect(
          got.balances.map((b) => ({ accountId: b.accountId, points: b.points })),
          label,
        ).toEqual(want.balances);
      }
    }
  });
});

// ---- search -------------------------------------------------------------------------------------------

interface Filters {
  text?: string;
  minAmount?: string;
  maxAmount?: string;
  direction?: 'in' | 'out';
  from?: string;
  to?: string;
  accountId?: number;
  categoryId?: number;
  excludeTransfers?: boolean;
}

function oracleSearch(f: Filters) {
  const needle = f.text === undefined ? null : fold(f.text.trim());
  const amountNeedle = needle && /^-?\d+,\d+$/.test(needle) ? needle.replace(',', '.') : needle;
  const inCategory = (id: number): boolean => {
    if (f.categoryId === undefined) return true;
    if (f.categoryId === 0) return id === 0;
    for (let c: number | undefined = id, guard = 0; c !== undefined && c !== 0 && guard < 10; c = parentOf.get(c), guard++) {
      if (c === f.categoryId) return true;
    }
    return false;
  };
  const categoryMatches = (id: number) => needle !== null && categories.some((c) => c.id === id && fold(c.name).includes(needle));
  const matches = rows.filter((r) => {
    if (f.accountId !== undefined && r.accountId !== f.accountId) return false;
    const day = r.paymentDate.slice(0, 10);
    if (f.from && day < f.from) return false;
    if (f.to && day > f.to) return false;
    if (!inCategory(r.categoryId)) return false;
    if (f.excludeTransfers && r.type === 3) return false;
    if (needle && !(categoryMatches(r.categoryId) || r.amount.includes(amountNeedle!) || fold(r.description).includes(needle))) {
      return false;
    }
    const v = units(r.amount);
    if (f.direction === 'in' && v <= 0n) return false;
    if (f.direction === 'out' && v >= 0n) return false;
    const size = v < 0n ? -v : v;
    if (f.minAmount !== undefined && size < units(f.minAmount)) return false;
    if (f.maxAmount !== undefined && size > units(f.maxAmount)) return false;
    return true;
  });
  // Newest first; on one date by id, pending ones (negative ids) after the stored ones.
  matches.sort((a, b) => (a.paymentDate !== b.paymentDate ? (a.paymentDate > b.paymentDate ? -1 : 1) : b.id - a.id));
  const sums = new Map<number, { total: bigint; count: number }>();
  for (const r of matches) {
    const currency = accounts.find((a) => a.id === r.accountId)!.currency;
    const s = sums.get(currency) ?? { total: 0n, count: 0 };
    sums.set(currency, { total: s.total + units(r.amount), count: s.count + 1 });
  }
  return {
    ids: matches.map((r) => r.id),
    sums: [...sums].sort(([a], [b]) => a - b).map(([currency, s]) => ({ currency, total: text(s.total), count: s.count })),
  };
}

function randomFilters(): Filters {
  const f: Filters = {};
  if (random() < 0.4) {
    f.text = pick(['benzin', 'BENZÍN', 'ob', 'é', 'škoda', 'skoda', '2026', ',5', '0.5', '-1', 'natural', 'rohl', 'x y z', '"']);
  }
  if (random() < 0.3) f.minAmount = pick(['0', '0.5', '10', '100.25', '0.00001']);
  if (random() < 0.3) f.maxAmount = pick(['1', '50.5', '700', '100000000000000', '0.000015']);
  if (f.minAmount && f.maxAmount && units(f.minAmount) > units(f.maxAmount)) delete f.maxAmount;
  if (random() < 0.3) f.direction = pick(['in', 'out'] as const);
  if (random() < 0.4) {
    const p = randomPeriod();
    f.from = p.from;
    if (random() < 0.7) f.to = p.to;
  }
  if (random() < 0.3) f.accountId = pick([1, 2, 3, 4]);
  if (random() < 0.3) f.categoryId = pick([0, 10, 11, 20, 30, 999]);
  if (random() < 0.3) f.excludeTransfers = true;
  return f;
}

describe('search in SQL', () => {
  it('equals the oracle: matches in order, their count and exact sums, page by page', async () => {
    for (let n = 0; n < 120; n++) {
      const f = randomFilters();
      const want = oracleSearch(f);
      const limit = pick([1, 7, 50, 500]);
      const offset = pick([0, 0, 3, 10, 49, want.ids.length, want.ids.length + 5]);
      const got: SearchResult = await local.core.searchTransactions({ ...f, offset, limit });
      const label = JSON.stringify({ ...f, offset, limit });
      expect(got.total, label).toBe(want.ids.length);
      expect(got.sums, label).toEqual(want.sums);
      expect(
        got.items.map((i) => i.id),
        label,
      ).toEqual(want.ids.slice(offset, offset + limit));
    }
  });

  it('exports every match in the same order', async () => {
    for (let n = 0; n < 10; n++) {
      const f = randomFilters();
      const csv = await local.core.exportTransactionsCsv(f);
      const ids = csv.content
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => Number(line.split(',').at(-2)));
      expect(ids, JSON.stringify(f)).toEqual(oracleSearch(f).ids);
    }
  });
});
