/**
 * Sync throughput of the client core against the real service running in its own process on loopback:
 *
 * - push: sync an outbox of 1,000 queued writes (transfers between 20 accounts, account edits, new
 *   categories and refuelings), then the pull that ends every sync;
 * - pull: a first sync of a data set of 200 accounts x 50 transactions into an empty local copy.
 *
 * Each next to the same work done one request at a time (push and pull concurrency 1, same keep-alive
 * client), and the ratio of the two. Options: --rounds=<n> (pull repetitions, default 3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../src-main/core/app/app-core';
import { MemorySecretStore } from '../src-main/core/secrets';
import { accountFor, contextOf, withStore } from '../src-service';
import { bookTransaction } from '../src-service/operations/transactions';
import { seedTestUser } from '../test/support/service';
import { seededRandom } from '../test/support/fault-proxy';

const TIME_ZONE = 'Europe/Prague';
const CLIENT_KEY = 'bench-key';

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

/** The service as its own process (`serve`), so that client and service use both cores as in real use. */
async function serve(dataFile: string): Promise<{ url: string; child: ChildProcess }> {
  const root = join(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-service/cli.ts'), 'serve', '--data', dataFile, '--port', '0', '--time-zone', TIME_ZONE], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const line = /(http:\/\/\S+)/.exec(out);
      if (line) resolve(line[1]!.replace(/\/API\/APIservice\.asmx.*$/, ''));
    });
    child.on('exit', (code) => reject(new Error(`the service exited (${code})`)));
  });
  return { url, child };
}

function seedUser(dataFile: string, login: string, accounts: number, transactionsEach: number): void {
  seedTestUser(dataFile, { clientKey: CLIENT_KEY, login, password: 'bench' });
  withStore(dataFile, (store) => {
    const ctx = contextOf(store, login, TIME_ZONE);
    for (let a = 0; a < accounts; a++) {
      const id = accountFor(ctx, { name: `Account ${a}`, currency: 203, ord: a });
      for (let t = 0; t < transactionsEach; t++) {
        bookTransaction(ctx, { accountId: id, amount: t % 2 ? 125.5 : -42.25, paymentDate: `2026-${String(1 + (t % 12)).padStart(2, '0')}-${String(1 + (t % 28)).padStart(2, '0')}T10:00:00`, description: `Payment ${t}` });
      }
    }
  });
}

async function openConnected(dir: string, name: string, url: string, login: string, concurrency: number): Promise<AppCore> {
  const core = createAppCore({
    dataFile: join(dir, `${name}.sqlite`),
    secrets: new MemorySecretStore(),
    timeZone: TIME_ZONE,
    sync: { pushConcurrency: concurrency, pullConcurrency: concurrency },
    log: (m, e) => console.error(m, e),
  });
  await core.connect({ baseUrl: url, clientKey: CLIENT_KEY, login, password: 'bench' });
  return core;
}

/** The same 1,000 writes for any core whose user has the 20 seeded accounts. */
async function queueWrites(core: AppCore): Promise<void> {
  const random = seededRandom(7);
  const accounts = (await core.listAccounts({})).accounts.map((a) => a.id);
  const pick = () => accounts[Math.floor(random() * accounts.length)]!;
  await core.saveCar({ carId: 1, name: 'Bench car' });
  for (let i = 0; i < 1000; i++) {
    const r = random();
    if (r < 0.8) {
      const source = pick();
      let target = pick();
      while (target === source) target = pick();
      await core.transfer({ sourceId: source, targetId: target, amount: `${1 + Math.floor(random() * 5000)}.${Math.floor(random() * 100)}`, paymentDate: '2026-09-01T12:00', categoryId: 0, description: `Bench ${i}` });
    } else if (r < 0.9) {
      const id = pick();
      await core.editAccount({ id, name: `Account ${accounts.indexOf(id)} (${i})`, description: `edit ${i}`, type: 2, isActive: true, isHidden: false, locked: false, ord: i });
    } else if (r < 0.95) {
      await core.addCategory({ name: `Category ${i}`, parentId: 0 });
    } else {
      await core.addRefueling({ carId: 1, dateOfPurchase: '2026-09-02T08:00', tachometer: i, liter: '40.5', price: '1650.9', currency: 203, rate: '1', description: `Fuel ${i}` });
    }
  }
}

/** Runs one sync; returns its total time and the time until the pull began (the push). */
async function timedSync(core: AppCore): Promise<{ total: number; push: number }> {
  let pushEnd = 0;
  const started = performance.now();
  const off = core.onEvent((e) => {
    if (e.type === 'sync-progress' && e.phase === 'pull' && pushEnd === 0) pushEnd = performance.now();
  });
  const summary = await core.sync();
  off();
  const total = performance.now() - started;
  if (summary.error) throw new Error(`sync failed: ${summary.error}`);
  return { total, push: (pushEnd || performance.now()) - started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (slow: number, fast: number) => `${(slow / fast).toFixed(2)}x`;

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, 'rounds', 3);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-sync-bench-'));
  const dataFile = join(dir, 'service.sqlite');
  console.log('Preparing: 5 users x 20 accounts for the writes, 1 user with 200 accounts x 50 transactions...');
  for (let n = 0; n < 5; n++) seedUser(dataFile, `writes-${n}`, 20, 0);
  seedUser(dataFile, 'pull', 200, 50);
  const service = await serve(dataFile);
  try {
    // 1,000 queued writes: each run its own user with the same 20 accounts and an identical outbox;
    // a first run warms the service up, then the two ways alternate.
    const writes = { parallel: [] as { total: number; push: number }[], serial: [] as { total: number; push: number }[] };
    for (const [n, mode] of (['warm-up', 'parallel', 'serial', 'parallel', 'serial'] as const).entries()) {
      const core = await openConnected(dir, `writes-${n}`, service.url, `writes-${n}`, mode === 'serial' ? 1 : 6);
      await timedSync(core);
      await queueWrites(core);
      const time = await timedSync(core);
      const left = (await core.listOutbox()).length;
      if (left) throw new Error(`${left} writes left in the outbox`);
      await core.close();
      if (mode !== 'warm-up') writes[mode].push(time);
    }
    const mean = (xs: { total: number; push: number }[], k: 'total' | 'push') => xs.reduce((a, x) => a + x[k], 0) / xs.length;
    const par = { total: mean(writes.parallel, 'total'), push: mean(writes.parallel, 'push') };
    const ser = { total: mean(writes.serial, 'total'), push: mean(writes.serial, 'push') };

    // The pull of 200 x 50 into empty local copies, alternating.
    const pulls = { parallel: [] as number[], serial: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const [mode, concurrency] of [['parallel', 6], ['serial', 1]] as const) {
        const core = await openConnected(dir, `pull-${mode}-${r}`, service.url, 'pull', concurrency);
        pulls[mode].push((await timedSync(core)).total);
        await core.close();
      }
    }

    const load = loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`\nSync benchmark (client and service in separate processes, loopback, keep-alive; ${cpus().length} cores, load average ${load})`);
    console.log(`1,000 queued writes (mean of 2 runs each), push only:   parallel (6 in flight) ${s(par.push)}   one request at a time ${s(ser.push)}   ratio ${ratio(ser.push, par.push)}`);
    console.log(`1,000 queued writes, whole sync:  parallel ${s(par.total)}   one request at a time ${s(ser.total)}   ratio ${ratio(ser.total, par.total)}`);
    const pm = median(pulls.parallel);
    const sm = median(pulls.serial);
    console.log(`pull 200 accounts x 50 transactions (median of ${rounds}): parallel (6 in flight) ${s(pm)}   one request at a time ${s(sm)}   ratio ${ratio(sm, pm)}`);
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((r) => service.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
