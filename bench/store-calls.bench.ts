/**
 * The store's calls of the service's mix, in this process and without HTTP: the account list, the last 50
 * transactions of an account (from the reader's keep), a login's user (the credential check's lookup) and a
 * transfer, as the operations make them, on SQLite (the serving store with its group commit) and on
 * PostgreSQL (an instance's store on a throwaway cluster). Each is timed by the CPU this process spends per
 * call, which is what a server spends on them (PostgreSQL's own work is not in it) and, unlike requests a
 * second, hardly depends on what else the machine runs.
 *
 * --baseline=<checkout> loads the same calls of another checkout (e.g. the commit before a change; give it a
 * node_modules) into this process, each on its own copy of the same data, and interleaves the two trial by
 * trial; the least CPU of the trials counts, and the ratio of the two is printed. Options: --trials=<n>
 * (default 12), --only=sqlite|postgres.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { copyToPostgres } from '../src-service/store/copy';
import { findPostgres, HOW_TO_GET_POSTGRES, startPostgres, type PgCluster } from '../test/support/postgres';
import { option, seedMix, textOption } from './service.bench';

type Call = (i: number) => unknown;

interface Subject {
  calls: Record<string, Call>;
  /** Waits for what the calls left running (SQLite: the group commit of the transfers). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** How many of each call a trial makes. */
const CALLS: Record<string, number> = { 'account list': 1000, 'last 50': 2000, 'user of a login': 2000, transfer: 200 };

/** A checkout's modules, by path (this one's or the baseline's). */
async function modulesOf(root: string) {
  const from = async (path: string) => import(join(root, path));
  return {
    ServingStore: (await from('src-service/store/sqlite/serving.ts')).ServingStore,
    PostgresServiceStore: (await from('src-service/store/postgres/serving.ts')).PostgresServiceStore,
    runNow: (await from('src-service/store/index.ts')).runNow,
    listAccounts: (await from('src-service/operations/accounts.ts')).listAccounts,
    operations: await from('src-service/operations/transactions.ts'),
  };
}

type Modules = Awaited<ReturnType<typeof modulesOf>>;

/** The mix's calls on one store: `read` and `write` run a flow, waiting for it or not as the store needs. */
function callsOf(m: Modules, ctx: { user: { id: number } }, accounts: number[], store: StoreLike): Record<string, Call> {
  const transfer = (i: number) => ({
    Amount: 1.25,
    Description: `Bench ${i}`,
    Id_SourceAccount: accounts[i % accounts.length]!,
    Id_TargetAccount: accounts[(i + 1) % accounts.length]!,
    Id_Category: 0,
    PaymentDate: '2026-11-20T10:00:00',
  });
  return {
    'account list': () => store.read((s) => m.listAccounts({ ...ctx, store: s })),
    'last 50': (i) => store.read((s) => m.operations.lastTransactions({ ...ctx, store: s }, { AccountId: accounts[i % accounts.length] })),
    'user of a login': () => store.user('bench1'),
    transfer: (i) => store.write((s) => m.operations.addTransfer({ ...ctx, store: s }, transfer(i))),
  };
}

interface StoreLike {
  read(flow: (s: unknown) => unknown): unknown;
  write(flow: (s: unknown) => unknown): unknown;
  user(login: string): unknown;
}

async function sqliteSubject(root: string, file: string): Promise<Subject> {
  const m = await modulesOf(root);
  const serving = m.ServingStore.open(file);
  const pending: unknown[] = [];
  const store: StoreLike = {
    read: (flow) => serving.read((s: unknown) => m.runNow(flow(s))),
    write: (flow) => pending.push(serving.write((s: unknown) => m.runNow(flow(s)))),
    user: (login) => serving.users.byLogin(login),
  };
  const ctx = { user: serving.users.byLogin('bench1'), timeZone: 'Europe/Prague', now: Date.now };
  const accounts = (store.read((s) => m.listAccounts({ ...ctx, store: s })) as { Id: number }[]).map((a) => a.Id);
  return {
    calls: callsOf(m, ctx, accounts, store),
    settle: async () => void (await Promise.all(pending.splice(0))),
    close: () => serving.close(),
  };
}

async function postgresSubject(root: string, url: string): Promise<Subject> {
  const m = await modulesOf(root);
  const instance = await m.PostgresServiceStore.open(url, { poolSize: 4 });
  const store: StoreLike = {
    read: (flow) => instance.read(flow),
    write: (flow) => instance.write(flow),
    user: (login) => instance.credentials.byLogin(login),
  };
  const ctx = { user: await instance.credentials.byLogin('bench1'), timeZone: 'Europe/Prague', now: Date.now };
  const accounts = ((await store.read((s) => m.listAccounts({ ...ctx, store: s }))) as { Id: number }[]).map((a) => a.Id);
  return { calls: callsOf(m, ctx, accounts, store), settle: async () => {}, close: () => instance.close() };
}

/** This process's CPU per call of each kind, the least of the trials; subjects interleaved, their order alternating. */
async function measure(subjects: Record<string, Subject>, trials: number): Promise<Record<string, Record<string, number>>> {
  const least: Record<string, Record<string, number>> = {};
  for (let trial = 0; trial < trials; trial++) {
    const order = Object.entries(subjects);
    if (trial % 2 === 1) order.reverse();
    for (const [name, subject] of order) {
      for (const [call, fn] of Object.entries(subject.calls)) {
        const n = CALLS[call]!;
        const started = process.cpuUsage();
        // Four at a time: PostgreSQL's calls wait for their answers, as a server's few connections would.
        for (let i = 0; i < n; i += 4) await Promise.all([fn(i), fn(i + 1), fn(i + 2), fn(i + 3)]);
        await subject.settle();
        const spent = process.cpuUsage(started);
        const us = (spent.user + spent.system) / n;
        (least[call] ??= {})[name] = Math.min(least[call][name] ?? Infinity, us);
      }
    }
  }
  return least;
}

function print(store: string, least: Record<string, Record<string, number>>): void {
  for (const [call, by] of Object.entries(least)) {
    const ratio =
      by.baseline === undefined
        ? ''
        : `  baseline ${by.baseline.toFixed(1).padStart(7)} us  ours/baseline ${(by.ours! / by.baseline).toFixed(2)}`;
    console.log(`  ${store.padEnd(10)} ${call.padEnd(16)} ours ${by.ours!.toFixed(1).padStart(7)} us${ratio}`);
  }
}

export async function run(args: string[]): Promise<void> {
  const trials = option(args, 'trials', 12);
  const only = textOption(args, 'only');
  const baseline = textOption(args, 'baseline');
  const roots: Record<string, string> = { ours: resolve(import.meta.dirname, '..'), ...(baseline ? { baseline: resolve(baseline) } : {}) };
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-bench-calls-'));
  const seed = join(dir, 'seed.sqlite');
  seedMix(seed, 'http://tempuri.org/');
  console.log(
    `Store calls: this process's CPU per call, the least of ${trials} trials` +
      `${baseline ? `, ours and the baseline (${baseline}) interleaved` : ''}; ` +
      `the service benchmark's data (20 users x 10 accounts x 60 transactions).`,
  );
  let cluster: PgCluster | undefined;
  try {
    if (only !== 'postgres') {
      const subjects: Record<string, Subject> = {};
      for (const [name, root] of Object.entries(roots)) {
        const file = join(dir, `${name}.sqlite`);
        copyFileSync(seed, file);
        subjects[name] = await sqliteSubject(root, file);
      }
      print('SQLite', await measure(subjects, trials));
      for (const s of Object.values(subjects)) await s.close();
    }
    if (only !== 'sqlite') {
      const bin = findPostgres();
      if (!bin) throw new Error(`PostgreSQL's calls need PostgreSQL (--only=sqlite leaves them out): ${HOW_TO_GET_POSTGRES}`);
      cluster = await startPostgres({ bin, settings: ['synchronous_commit=on'] });
      const subjects: Record<string, Subject> = {};
      for (const [name, root] of Object.entries(roots)) {
        const url = await cluster.createDatabase(`calls_${name}`);
        await copyToPostgres(seed, url);
        subjects[name] = await postgresSubject(root, url);
      }
      print('PostgreSQL', await measure(subjects, trials));
      for (const s of Object.values(subjects)) await s.close();
    }
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
