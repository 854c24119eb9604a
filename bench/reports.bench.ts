/**
 * Reports and search over a large local history, through a real app core (createAppCore, input
 * validation included): a local copy of 100,000 transactions over five years on 10 accounts, 40
 * categories in two levels, and a few pending transfers laid over them.
 *
 * - getReport for the last year and for the whole span, searchTransactions without filters, with a
 *   text and with an amount range: best of --rounds (default 7) each;
 * - each next to the 1,000 ms target and to a baseline measured in the same run: one plain SELECT of
 *   the same rows through better-sqlite3 (what any answer over them costs at least).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../src-main/core/app/app-core';
import { MemorySecretStore } from '../src-main/core/secrets';
import { Store } from '../src-main/core/store/store';
import type { TransactionRow } from '../src-main/core/store/rows';
import { seededRandom } from '../test/support/fault-proxy';

const TRANSACTIONS = 100_000;
const ACCOUNTS = 10;
const YEARS = 5;
const FIRST_YEAR = 2021;
const TARGET_MS = 1000;

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

function fill(file: string): void {
  const random = seededRandom(11);
  const store = new Store(file);
  try {
    store.transaction(() => {
      for (let a = 1; a <= ACCOUNTS; a++) {
        store.upsertAccount({ id: a, name: `Account ${a}`, description: '', type: 2, currency: 203, isActive: true, locked: false, isHidden: false, ord: a, permission: 3, balance: '250000.5' }, a);
      }
      const all = [];
      for (let top = 1; top <= 8; top++) {
        all.push({ id: top * 100, name: `Group ${top}`, parentId: 0, position: top });
        for (let child = 1; child <= 4; child++) all.push({ id: top * 100 + child, name: `Category ${top}.${child}`, parentId: top * 100, position: child });
      }
      store.replaceCategories({ all, favorites: [] });
      const days = YEARS * 365;
      const rows: TransactionRow[] = [];
      for (let n = 1; n <= TRANSACTIONS; n++) {
        const day = new Date(Date.UTC(FIRST_YEAR, 0, 1) + Math.floor(random() * days) * 86_400_000).toISOString().slice(0, 10);
        const cents = Math.floor(random() * 500_000) * (random() < 0.7 ? -1 : 1);
        const top = 1 + Math.floor(random() * 8);
        rows.push({
          key: `id:${n}`,
          id: n,
          accountId: 1 + (n % ACCOUNTS),
          paymentDate: `${day}T${String(Math.floor(random() * 24)).padStart(2, '0')}:15:00`,
          type: random() < 0.1 ? 3 : cents < 0 ? 2 : 1,
          amount: String(cents / 100),
          description: `Payment ${n} at shop ${Math.floor(random() * 500)}`,
          categoryId: random() < 0.05 ? 0 : top * 100 + Math.floor(random() * 5),
          userId: 1,
          userCreatedId: 1,
        });
      }
      store.upsertTransactions(rows);
    });
  } finally {
    store.close();
  }
}

async function best(rounds: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let fastest = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    await fn();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, 'rounds', 7);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-reports-bench-'));
  const file = join(dir, 'local.sqlite');
  console.log(`Preparing: ${TRANSACTIONS.toLocaleString('en')} transactions over ${YEARS} years on ${ACCOUNTS} accounts...`);
  fill(file);
  const core: AppCore = createAppCore({ dataFile: file, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague', log: (m, e) => console.error(m, e) });
  const db = new Database(file, { readonly: true });
  try {
    for (let k = 0; k < 5; k++) {
      await core.transfer({ sourceId: 1, targetId: 2 + k, amount: `${10 + k}.5`, paymentDate: `${FIRST_YEAR + YEARS - 1}-06-0${k + 1}T10:00`, categoryId: 101, description: `Pending ${k}` });
    }
    const lastYear = { from: `${FIRST_YEAR + YEARS - 1}-01-01`, to: `${FIRST_YEAR + YEARS - 1}-12-31` };
    const span = { from: `${FIRST_YEAR}-01-01`, to: `${FIRST_YEAR + YEARS - 1}-12-31` };
    const select = db.prepare('SELECT * FROM transactions WHERE payment_date >= ?');
    const cases: { name: string; rows: number; run: () => Promise<unknown>; baseline: () => unknown }[] = [
      { name: 'getReport, last year', rows: 0, run: () => core.getReport(lastYear), baseline: () => select.all(lastYear.from) },
      { name: 'getReport, whole span', rows: 0, run: () => core.getReport(span), baseline: () => select.all(span.from) },
      { name: 'searchTransactions, no filter', rows: 0, run: () => core.searchTransactions({}), baseline: () => select.all(span.from) },
      { name: 'searchTransactions, text "shop 42"', rows: 0, run: () => core.searchTransactions({ text: 'shop 42' }), baseline: () => select.all(span.from) },
      { name: 'searchTransactions, 100-200 out, a year', rows: 0, run: () => core.searchTransactions({ minAmount: '100', maxAmount: '200', direction: 'out', ...lastYear }), baseline: () => select.all(lastYear.from) },
    ];
    const report = await core.getReport(span);
    if (report.total.count + (await core.getReport({ ...span, includeTransfers: true })).total.count === 0) throw new Error('the report is empty');
    const results = [];
    for (const c of cases) {
      await c.run();
      const ms = await best(rounds, c.run);
      const base = await best(rounds, c.baseline);
      results.push({ ...c, ms, base });
    }
    const load = loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`\nReports and search over ${TRANSACTIONS.toLocaleString('en')} local transactions, through the app core (best of ${rounds}; ${cpus().length} cores, load average ${load})`);
    for (const r of results) {
      console.log(
        `${r.name.padEnd(42)} ${r.ms.toFixed(0).padStart(5)} ms   ${(r.ms / TARGET_MS).toFixed(2)}x the ${TARGET_MS} ms target   ` +
          `${(r.ms / r.base).toFixed(2)}x one plain SELECT of the rows (${r.base.toFixed(0)} ms)`,
      );
    }
  } finally {
    db.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
