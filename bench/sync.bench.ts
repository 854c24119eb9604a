/**
 * Sync over a round trip: the client core against the real service in its own process, through a
 * latency proxy that puts `--rtt` ms between them (every chunk rtt/2 each way, a round trip per new
 * connection), next to the same on loopback and the same one request at a time. Measured side by side
 * in one run:
 *
 * - a first sync of a user with 200 accounts x 50 transactions (random amounts, dates and descriptions;
 *   other users in the same service) into an empty local copy, and an unchanged re-sync;
 * - a push of 1,000 independent queued writes (transfers, account edits, new categories, refuelings),
 *   then the pull that ends every sync. One request at a time over the link is measured on 100 of them.
 *
 * Goals (the issue's): at 50 ms, first sync and re-sync at most 1.5 s more than on loopback; the push
 * of 1,000 writes under 10 s. Options: --rtt=<ms> (default 50), --rounds=<n> (default 2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../src-main/core/app/app-core';
import { MemorySecretStore } from '../src-main/core/secrets';
import { accountFor, contextOf, onFile } from '../src-service';
import { bookTransaction } from '../src-service/operations/transactions';
import { seededRandom } from '../test/support/fault-proxy';
import { startLatencyProxy } from '../test/support/latency-proxy';
import { seedTestUser } from '../test/support/service';

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
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src-service/cli.ts'), 'serve', '--data', dataFile, '--port', '0', '--time-zone', TIME_ZONE],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const line = /(http:\/\/\S+)/.exec(out);
      if (line) resolve(line[1]!.replace(/\/API\/APIservice\.asmx.*$/, ''));
    });
    child.on('exit', (code) => reject(new Error(`the service exited (${code})`)));
  });
  return { url, child };
}

function seedUser(dataFile: string, login: string, accounts: number, transactionsEach: number): void {
  const random = seededRandom(login.length * 7919 + accounts);
  seedTestUser(dataFile, { clientKey: CLIENT_KEY, login, password: 'bench' });
  onFile(dataFile, function* (store) {
    const ctx = yield* contextOf(store, login, TIME_ZONE);
    for (let a = 0; a < accounts; a++) {
      const id = yield* accountFor(ctx, { name: `Account ${a}`, currency: 203, ord: a });
      for (let t = 0; t < transactionsEach; t++) {
        const amount = ((random() < 0.3 ? 1 : -1) * (1 + Math.floor(random() * 500_000))) / 100;
        const date = `2026-${String(1 + Math.floor(random() * 10)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T${String(7 + Math.floor(random() * 13)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}:00`;
        yield* bookTransaction(ctx, { accountId: id, amount, paymentDate: date, description: `Payment ${Math.floor(random() * 1e6)}` });
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

/** The same `count` writes for any core whose user has the 20 seeded accounts. */
async function queueWrites(core: AppCore, count = 1000): Promise<void> {
  const random = seededRandom(7);
  const accounts = (await core.listAccounts({})).accounts.map((a) => a.id);
  const pick = () => accounts[Math.floor(random() * accounts.length)]!;
  await core.saveCar({ carId: 1, name: 'Bench car' });
  for (let i = 0; i < count; i++) {
    const r = random();
    if (r < 0.8) {
      const source = pick();
      let target = pick();
      while (target === source) target = pick();
      await core.transfer({
        sourceId: source,
        targetId: target,
        amount: `${1 + Math.floor(random() * 5000)}.${Math.floor(random() * 100)}`,
        paymentDate: '2026-09-01T12:00',
        categoryId: 0,
        description: `Bench ${i}`,
      });
    } else if (r < 0.9) {
      const id = pick();
      await core.editAccount({
        id,
        name: `Account ${accounts.indexOf(id)} (${i})`,
        description: `edit ${i}`,
        type: 2,
        isActive: true,
        isHidden: false,
        locked: false,
        ord: i,
      });
    } else if (r < 0.95) {
      await core.addCategory({ name: `Category ${i}`, parentId: 0 });
    } else {
      await core.addRefueling({
        carId: 1,
        dateOfPurchase: '2026-09-02T08:00',
        tachometer: i,
        liter: '40.5',
        price: '1650.9',
        currency: 203,
        rate: '1',
        description: `Fuel ${i}`,
      });
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

/** A link to the service: loopback, or through a latency proxy. */
interface Link {
  name: string;
  url: string;
  concurrency: number;
}

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, 'rounds', 2);
  const rtt = option(args, 'rtt', 50);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-sync-bench-'));
  const dataFile = join(dir, 'service.sqlite');
  console.log('Preparing: 9 users x 20 accounts for the writes, 1 user with 200 accounts x 50 transactions...');
  for (let n = 0; n < 9; n++) seedUser(dataFile, `writes-${n}`, 20, 0);
  seedUser(dataFile, 'pull', 200, 50);
  const service = await serve(dataFile);
  const proxy = await startLatencyProxy(service.url, rtt);
  const links: Link[] = [
    { name: 'loopback', url: service.url, concurrency: 32 },
    { name: `${rtt} ms, adaptive`, url: proxy.url, concurrency: 32 },
    { name: `${rtt} ms, one at a time`, url: proxy.url, concurrency: 1 },
  ];
  try {
    // First sync and unchanged re-sync of 200 x 50, the links alternating round by round.
    const first = new Map<string, number[]>(links.map((l) => [l.name, []]));
    const again = new Map<string, number[]>(links.map((l) => [l.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const link of links) {
        const core = await openConnected(dir, `pull-${r}-${link.concurrency}-${link.url.slice(-5)}`, link.url, 'pull', link.concurrency);
        first.get(link.name)!.push((await timedSync(core)).total);
        again.get(link.name)!.push((await timedSync(core)).total);
        await core.close();
      }
    }

    // 1,000 queued writes: each run its own user with the same 20 accounts; a first run warms up.
    const pushes = new Map<string, { push: number; total: number; writes: number }>();
    let user = 0;
    for (const link of [links[0]!, ...links]) {
      const writes = link.concurrency === 1 ? 100 : 1000;
      const core = await openConnected(dir, `writes-${user}`, link.url, `writes-${user}`, link.concurrency);
      user++;
      await timedSync(core);
      await queueWrites(core, writes);
      const time = await timedSync(core);
      const left = (await core.listOutbox()).length;
      if (left) throw new Error(`${left} writes left in the outbox`);
      await core.close();
      pushes.set(link.name, { ...time, writes });
    }

    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    const med = (name: string, m: Map<string, number[]>) => median(m.get(name)!);
    const [lo, ad, one] = links.map((l) => l.name) as [string, string, string];
    console.log(
      `\nSync benchmark: client and service in separate processes, ${cpus().length} cores, load average ${load}; median of ${rounds} rounds`,
    );
    console.log(`${''.padEnd(34)}${lo.padStart(12)}${ad.padStart(22)}${one.padStart(30)}`);
    for (const [label, m] of [
      ['first sync, 200 accounts x 50', first],
      ['unchanged re-sync', again],
    ] as const) {
      console.log(`${label.padEnd(34)}${s(med(lo, m)).padStart(12)}${s(med(ad, m)).padStart(22)}${s(med(one, m)).padStart(30)}`);
    }
    const pushOne = pushes.get(one)!;
    console.log(
      `${'push of 1,000 writes (push only)'.padEnd(34)}${s(pushes.get(lo)!.push).padStart(12)}${s(pushes.get(ad)!.push).padStart(22)}` +
        `${`${s(pushOne.push)} for 100 (~${s(pushOne.push * 10)})`.padStart(30)}`,
    );
    const extra = (m: Map<string, number[]>) => med(ad, m) - med(lo, m);
    console.log(
      `\nAt ${rtt} ms: first sync costs ${s(extra(first))} more than on loopback (goal <= 1.50 s), ${ratio(med(one, first), med(ad, first))} faster than one request at a time;`,
    );
    console.log(
      `  unchanged re-sync ${s(extra(again))} more than on loopback (goal <= 1.50 s), ${ratio(med(one, again), med(ad, again))} faster than one at a time;`,
    );
    console.log(
      `  push of 1,000 writes ${s(pushes.get(ad)!.push)} (goal < 10 s), ${ratio(pushOne.push * 10, pushes.get(ad)!.push)} faster than one at a time (estimated from 100).`,
    );
    console.log(`  The latency proxy saw ${proxy.connections} connections in all (kept alive and reused).`);
  } finally {
    await proxy.close();
    service.child.kill('SIGTERM');
    await new Promise((r) => service.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
