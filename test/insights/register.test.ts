/**
 * The register through a real core on a real SQLite copy: keyset pages (boundaries, equal dates, rows
 * without ids, pending transfers among stored rows), a jump to a date, running balances against an
 * independent BigInt oracle on random data, transfers' other sides, a row's detail, the text filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisterCursor, RegisterPage, RegisterRow } from '../../src-shared/app-api';
import { cents, text, units } from '../support/decimal-oracle';
import { seededRandom } from '../support/fault-proxy';
import { testSeed } from '../support/seed';
import { seededCore, type SeededCore, type TransactionSeed } from './local-data';

const CZK = 203;
const EUR = 978;
const random = seededRandom(testSeed('REGISTER_SEED', 2026));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

// ---- an independent oracle: exact decimals as BigInts (oracle.ts), the order spelled out ----------------

interface OracleRow {
  key: string;
  id: number | null;
  accountId: number;
  paymentDate: string;
  amount: string;
  outboxId: number | null;
  categoryId: number;
  description: string;
}

/** The register's order: date descending; pending before stored; pending by outbox entry then id descending; stored by id descending (none last), then key descending. */
function oracleOrder(a: OracleRow, b: OracleRow): number {
  if (a.paymentDate !== b.paymentDate) return a.paymentDate > b.paymentDate ? -1 : 1;
  if ((a.outboxId === null) !== (b.outboxId === null)) return a.outboxId !== null ? -1 : 1;
  if (a.outboxId !== null) return b.outboxId! - a.outboxId || b.id! - a.id!;
  if (a.id !== b.id) return a.id === null ? 1 : b.id === null ? -1 : b.id - a.id;
  return a.key > b.key ? -1 : a.key < b.key ? 1 : 0;
}

// ---- random data ----------------------------------------------------------------------------------

const accounts = [
  { id: 1, name: 'Current', currency: CZK, balance: '12000.5' },
  { id: 2, name: 'Savings', currency: CZK, balance: '-300.25' },
  { id: 3, name: 'Old list', currency: CZK, balance: '0' },
  { id: 4, name: 'Euro', currency: EUR, balance: '77' },
];
const categories = [
  { id: 10, name: 'Pohonné hmoty', parentId: 0 },
  { id: 11, name: 'Benzín', parentId: 10 },
  { id: 20, name: 'Food', parentId: 0 },
];
const DAYS = ['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02', '2026-01-15', '2026-02-01'];
const TIMES = ['00:00:00', '08:30:00', '12:00:00', '23:59:59'];
const descriptions = ['Benzín Shell', 'ŠKODA servis', 'Rohlík', 'Nájem', 'Coffee', 'Salary'];

function randomAmount(): string {
  const roll = random();
  if (roll < 0.02) return '123456789012345.5'; // beyond the integer sums' range: summed from text
  if (roll < 0.05) return `${random() < 0.5 ? '-' : ''}0.00001`; // more decimals than any currency
  return cents(Math.floor(random() * 2_000_000) - 1_400_000);
}

const seeds: TransactionSeed[] = [];
const ids = [...Array(2000).keys()].map((i) => i + 1).sort(() => random() - 0.5);
let next = 0;
for (let n = 0; n < 400; n++) {
  const accountId = pick([1, 1, 1, 2, 4]);
  seeds.push({
    id: ids[next++]!,
    accountId,
    paymentDate: `${pick(DAYS)}T${pick(TIMES)}`,
    amount: randomAmount(),
    description: pick(descriptions),
    categoryId: pick([0, 11, 20, 99]),
    type: 2,
  });
}
// Account 3's history came from an old service without ids: keys of their content.
for (let n = 0; n < 30; n++) {
  seeds.push({
    id: null,
    key: `h:${String(n).padStart(3, '0')}`,
    accountId: 3,
    paymentDate: `${pick(DAYS)}T${pick(TIMES)}`,
    amount: randomAmount(),
    description: 'Cash',
    categoryId: 0,
    type: 2,
  });
}
// Synced transfers: both sides, consecutive ids, as the service writes them.
const transferPairs: [number, number][] = [];
for (let n = 0; n < 12; n++) {
  const id = 5000 + n * 2;
  const amount = cents(Math.floor(random() * 100000) + 1);
  const date = `${pick(DAYS)}T${pick(TIMES)}`;
  const [from, to] = random() < 0.5 ? [1, 2] : [2, 1];
  seeds.push({ id, accountId: from, paymentDate: date, amount: `-${amount}`, description: 'Move', categoryId: 0, type: 3 });
  seeds.push({ id: id + 1, accountId: to, paymentDate: date, amount, description: 'Move', categoryId: 0, type: 3 });
  transferPairs.push([id, id + 1]);
}

let local: SeededCore;
const pendingMoves: { source: number; target: number; amount: string }[] = [];

beforeAll(async () => {
  local = seededCore({ accounts, categories, transactions: seeds });
  for (let n = 0; n < 6; n++) {
    const [source, target] = n % 2 ? [1, 2] : [2, 1];
    const amount = `${n + 1}.${n}5`;
    await local.core.transfer({
      sourceId: source,
      targetId: target,
      amount,
      paymentDate: `${pick(DAYS)}T${pick(TIMES).slice(0, 5)}`,
      categoryId: 11,
      description: `Pending ${n}`,
    });
    pendingMoves.push({ source, target, amount });
  }
  // One on an account made offline: it has pending rows and no stored ones.
  const created = await local.core.addAccount({
    name: 'New',
    description: '',
    currency: CZK,
    type: 1,
    isActive: true,
    isHidden: false,
    locked: false,
    ord: 9,
  });
  await local.core.transfer({
    sourceId: 1,
    targetId: created.id,
    amount: '10',
    paymentDate: '2026-01-01T12:00',
    categoryId: 0,
    description: 'To the new one',
  });
  pendingMoves.push({ source: 1, target: created.id, amount: '10' });
});
afterAll(() => local.done());

/** Every row of the expected register, with its expected balance after it. */
async function expected(
  accountIds: number[],
  on: { core: SeededCore['core']; seeds: TransactionSeed[] } = { core: local.core, seeds },
): Promise<(OracleRow & { balance: string })[]> {
  const wanted = new Set(accountIds);
  const rows: OracleRow[] = on.seeds
    .filter((s) => wanted.has(s.accountId))
    .map((s) => ({
      key: s.key ?? `id:${s.id}`,
      id: s.id,
      accountId: s.accountId,
      paymentDate: s.paymentDate,
      amount: s.amount,
      outboxId: null,
      categoryId: s.categoryId!,
      description: s.description!,
    }));
  let now = 0n;
  for (const a of accounts) if (wanted.has(a.id)) now += units(a.balance);
  for (const e of await on.core.listOutbox()) {
    if (e.kind !== 'transfer') continue;
    const input = e.input as {
      sourceId: number;
      targetId: number;
      amount: string;
      paymentDate: string;
      categoryId: number;
      description: string;
    };
    const created = e.targetId!;
    // The source side carries the entry's first temporary id, the target the next one.
    for (const [accountId, id, sign] of [
      [input.sourceId, created, -1n],
      [input.targetId, created - 1, 1n],
    ] as const) {
      if (!wanted.has(accountId)) continue;
      rows.push({
        key: `pending:${id}`,
        id,
        accountId,
        paymentDate: input.paymentDate,
        amount: text(sign * units(input.amount)),
        outboxId: e.id,
        categoryId: input.categoryId,
        description: input.description,
      });
      now += sign * units(input.amount);
    }
  }
  rows.sort(oracleOrder);
  let balance = now;
  return rows.map((r) => {
    const out = { ...r, balance: text(balance) };
    balance -= units(r.amount);
    return out;
  });
}

const cursor = (r: RegisterRow): RegisterCursor => ({ paymentDate: r.paymentDate, key: r.key, id: r.id, outboxId: r.outboxId });

async function walk(
  input: { accountId?: number; currency?: number; text?: string },
  limit: number,
  direction: 'older' | 'newer',
  core = local.core,
): Promise<RegisterRow[]> {
  const out: RegisterRow[] = [];
  let page: RegisterPage = await core.listRegister({ ...input, limit, direction });
  for (let guard = 0; guard < 10_000; guard++) {
    if (direction === 'older') out.push(...page.rows);
    else out.unshift(...page.rows);
    if (!page.more) return out;
    const edge = direction === 'older' ? page.rows.at(-1)! : page.rows[0]!;
    page = await core.listRegister({ ...input, limit, direction, after: cursor(edge) });
  }
  throw new Error('the register never ended');
}

const shape = (rows: { key: string; balance: string; amount: string }[]) => rows.map((r) => `${r.key} ${r.amount} → ${r.balance}`);

describe('listRegister', () => {
  it('walks an account newest first and back, page by page, with every running balance exact', async () => {
    const want = await expected([1]);
    expect(want.length).toBeGreaterThan(200);
    for (const limit of [1, 7, 50, want.length, 500]) {
      expect(shape(await walk({ accountId: 1 }, limit, 'older')), `older by ${limit}`).toEqual(shape(want));
      expect(shape(await walk({ accountId: 1 }, limit, 'newer')), `newer by ${limit}`).toEqual(shape(want));
    }
  });

  it('orders rows without ids by key after those with ids, and rows of an account made offline', async () => {
    expect(shape(await walk({ accountId: 3 }, 4, 'older'))).toEqual(shape(await expected([3])));
    const created = (await local.core.listAccounts({})).accounts.find((a) => a.name === 'New')!;
    const rows = await walk({ accountId: created.id }, 10, 'older');
    expect(rows).toEqual([
      expect.objectContaining({
        amount: '10',
        balance: '10',
        pending: true,
        transfer: true,
        counterpart: expect.objectContaining({ accountId: 1, accountName: 'Current', pending: true }),
      }),
    ]);
  });

  it('across accounts: every account of a currency, the balance of them all', async () => {
    const created = (await local.core.listAccounts({})).accounts.find((a) => a.name === 'New')!;
    const want = await expected([1, 2, 3, created.id]);
    const got = await walk({ currency: CZK }, 33, 'older');
    expect(shape(got)).toEqual(shape(want));
    expect(got[0]!.accountName).toBeTruthy();
    const euro = await local.core.listRegister({ currency: EUR, limit: 500 });
    expect(shape(euro.rows)).toEqual(shape(await expected([4])));
    expect(euro).toMatchObject({ currency: EUR, balance: '77', accountIds: [4] });
  });

  it('across accounts when every account is of the currency (no account filter at all)', async () => {
    const own = seeds.filter((s) => s.accountId === 1 || s.accountId === 2);
    const only = seededCore({ accounts: accounts.slice(0, 2), categories, transactions: own });
    try {
      await only.core.transfer({
        sourceId: 1,
        targetId: 2,
        amount: '0.5',
        paymentDate: '2026-01-01T12:00',
        categoryId: 0,
        description: 'Pending',
      });
      const want = await expected([1, 2], { core: only.core, seeds: own });
      expect(shape(await walk({}, 17, 'older', only.core))).toEqual(shape(want));
      expect(shape(await walk({}, 17, 'newer', only.core))).toEqual(shape(want));
      const jump = await only.core.listRegister({ at: '2026-01-01', limit: 3, counts: true });
      const from = want.findIndex((r) => r.paymentDate.slice(0, 10) <= '2026-01-01');
      expect(shape(jump.rows)).toEqual(shape(want.slice(from, from + 3)));
      expect(jump).toMatchObject({ total: want.length, position: from, accountIds: [1, 2] });
    } finally {
      await only.done();
    }
  });

  it('jumps to a date: the rows of that day and older first, with their place in the register', async () => {
    const want = await expected([1]);
    for (const day of ['2026-01-01', '2025-12-31', '2026-01-14', '2020-01-01', '2030-01-01']) {
      const page = await local.core.listRegister({ accountId: 1, at: day, limit: 20, counts: true });
      const from = want.findIndex((r) => r.paymentDate.slice(0, 10) <= day);
      const expectedRows = from < 0 ? [] : want.slice(from, from + 20);
      expect(shape(page.rows), day).toEqual(shape(expectedRows));
      expect(page.total).toBe(want.length);
      expect(page.position, day).toBe(from < 0 ? want.length : from);
      expect(page.more).toBe(from >= 0 && from + 20 < want.length);
      // Above the jump, the newer rows continue without a gap.
      if (page.rows.length) {
        const above = await local.core.listRegister({
          accountId: 1,
          direction: 'newer',
          after: cursor(page.rows[0]!),
          limit: 5,
          counts: true,
        });
        expect(shape(above.rows)).toEqual(shape(want.slice(Math.max(0, from - 5), from)));
        expect(above.position).toBe(Math.max(0, from - 5));
      }
    }
  });

  it('names the other side of every transfer, synced or pending', async () => {
    const rows = await walk({ currency: CZK }, 500, 'older');
    for (const [a, b] of transferPairs) {
      const left = rows.find((r) => r.id === a)!;
      const right = rows.find((r) => r.id === b)!;
      expect(left.counterpart).toMatchObject({ transactionId: b, accountId: right.accountId, key: `id:${b}`, pending: false });
      expect(right.counterpart).toMatchObject({ transactionId: a, accountId: left.accountId, accountName: left.accountName });
    }
    const pending = rows.filter((r) => r.pending);
    expect(pending.length).toBe(pendingMoves.length * 2);
    for (const r of pending) {
      expect(r.transfer).toBe(true);
      const other = pending.find((p) => p.key === r.counterpart?.key)!;
      expect(other.outboxId).toBe(r.outboxId);
      expect(other.accountId).not.toBe(r.accountId);
    }
    expect(rows.filter((r) => !r.transfer).every((r) => r.counterpart === null)).toBe(true);
  });

  it('filters by text folded for case and diacritics, balances staying those of the whole register', async () => {
    const want = await expected([1]);
    const byKey = new Map(want.map((r) => [r.key, r]));
    const benzin = await walk({ accountId: 1, text: 'benzin' }, 9, 'older');
    // "Benzín Shell" by its description, category 11 "Benzín" by its name (most pending transfers are booked in it).
    const expectedKeys = want.filter((r) => r.description === 'Benzín Shell' || r.categoryId === 11).map((r) => r.key);
    expect(expectedKeys.some((k) => k.startsWith('pending:'))).toBe(true);
    expect(benzin.map((r) => r.key)).toEqual(expectedKeys);
    for (const r of benzin) expect(r.balance).toBe(byKey.get(r.key)!.balance);
    expect(
      (await local.core.listRegister({ accountId: 1, text: 'SKODA', limit: 500 })).rows.every((r) => r.description === 'ŠKODA servis'),
    ).toBe(true);
    // Two letters cannot use the trigram index: found row by row, folded alike.
    const short = await local.core.listRegister({ accountId: 1, text: 'ÍK', limit: 500, counts: true });
    expect(short.rows.length).toBeGreaterThan(0);
    expect(short.rows.every((r) => r.description === 'Rohlík')).toBe(true);
    expect(short.total).toBe(seeds.filter((s) => s.accountId === 1 && s.description === 'Rohlík').length);
  });

  it('filters by text through the trigram index asked once, as the search screen does: the rows, counts and places of a filter of the whole register', async () => {
    const fold = (t: string) =>
      t
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    const names = new Map(categories.map((c) => [c.id, c.name]));
    for (const input of [{ accountId: 1 }, { currency: CZK }]) {
      const whole = input.accountId ? await expected([1]) : await walk(input, 500, 'older');
      for (const needle of ['shell', 'Benzín', 'servis', 'move', '0.5']) {
        const f = fold(needle);
        const want = whole.filter(
          (r) => fold(r.description).includes(f) || r.amount.includes(f) || fold(names.get(r.categoryId) ?? '').includes(f),
        );
        expect(want.length, needle).toBeGreaterThan(0);
        for (const limit of [3, 500]) {
          const got = await walk({ ...input, text: needle }, limit, 'older');
          expect(shape(got), `${needle} by ${limit}`).toEqual(
            shape(want.map((r) => ({ ...r, balance: whole.find((w) => w.key === r.key)!.balance }))),
          );
        }
        // Counted: the whole filtered register, and a page's place in it.
        const first = await local.core.listRegister({ ...input, text: needle, limit: 2, counts: true });
        expect([first.total, first.position], needle).toEqual([want.length, 0]);
        if (want.length > 2) {
          const next = await local.core.listRegister({ ...input, text: needle, limit: 2, counts: true, after: cursor(first.rows[1]!) });
          expect(next.position, needle).toBe(2);
          expect(next.rows.map((r) => r.key)).toEqual(want.slice(2, 4).map((r) => r.key));
        }
      }
    }
  });

  it('refuses an unknown account', async () => {
    await expect(local.core.listRegister({ accountId: 77 })).rejects.toMatchObject({ kind: 'not-found', field: 'accountId' });
    await expect(local.core.listRegister({ accountId: 1, limit: 501 })).rejects.toMatchObject({ kind: 'invalid-input', field: 'limit' });
  });
});

describe('getTransaction', () => {
  it('gives every field, the state, the category path, the other side and the balance after it', async () => {
    const [a, b] = transferPairs[0]!;
    const detail = await local.core.getTransaction({ key: `id:${a}` });
    const seed = seeds.find((s) => s.id === a)!;
    expect(detail).toMatchObject({
      key: `id:${a}`,
      id: a,
      accountId: seed.accountId,
      amount: seed.amount,
      state: 'synced',
      outbox: null,
      transfer: true,
      counterpart: expect.objectContaining({ transactionId: b }),
      currency: CZK,
      userId: 1,
      userCreatedId: 1,
    });
    expect(detail.changedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(detail.balance).toBe((await expected([seed.accountId])).find((r) => r.key === `id:${a}`)!.balance);

    const benzin = seeds.find((s) => s.categoryId === 11)!;
    expect((await local.core.getTransaction({ key: `id:${benzin.id}` })).categoryPath).toEqual(['Pohonné hmoty', 'Benzín']);

    const pendingRow = (await local.core.listRegister({ accountId: 2, limit: 500 })).rows.find((r) => r.pending)!;
    const pending = await local.core.getTransaction({ key: pendingRow.key });
    expect(pending).toMatchObject({
      state: 'pending',
      changedAt: null,
      outbox: { id: pendingRow.outboxId, status: 'pending', attempts: 0 },
      balance: pendingRow.balance,
    });
    expect(pending.outbox!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await expect(local.core.getTransaction({ key: 'id:999999' })).rejects.toMatchObject({ kind: 'not-found' });
  });
});
