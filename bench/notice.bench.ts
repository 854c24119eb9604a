/**
 * `npm run bench -- notice [--rounds=5]`: how soon instances of the service on one PostgreSQL database
 * (a throwaway cluster, test/support/postgres.ts) act on a change made by the admin commands, in two ways:
 *
 * - announced: a client key is disabled; from its commit until both of two instances refuse it (the
 *   announcement arrives on their listening connections);
 * - unheard: the listening connection of a third instance is silently broken first (its packets dropped by a
 *   proxy, test/support/silencing-proxy.ts), then the key is disabled; until that instance refuses it (its
 *   heartbeat must tell it that it hears nothing: a ping unheard 2 s after its commit).
 *
 * Each round's time from the commit to the first refused call (calls one after another); prints the median
 * and the slowest of each. The tests (test/service/instances.test.ts, listener-heartbeat.test.ts) check that
 * the refusals come; this, how soon.
 */
import { cpus, loadavg } from 'node:os';
import { TEST_HASH_PARAMS, openAdmin, silentLogger, startService, type RunningService } from '../src-service';
import type { Credentials } from '../src-shared/catalog';
import { ChannelWatch } from '../test/support/channel-watch';
import { call } from '../test/support/http';
import { findPostgres, HOW_TO_GET_POSTGRES, startPostgres } from '../test/support/postgres';
import { startSilencingProxy } from '../test/support/silencing-proxy';
import { until, untilPasses } from '../test/support/until';

const KEY = 'notice-key';
const ANN: Credentials = { clientKey: KEY, login: 'ann', password: 'ann-secret' };

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

/** CategoryTree is never answered from kept answers: every call meets the credential check. */
const refuses = (s: RunningService) =>
  call(s, 'soap12', 'CategoryTree', ANN, {}).then(
    () => false,
    (e: unknown) => /^Invalid credentials$/.test((e as Error).message),
  );

/** Milliseconds from now until every one of `services` refuses the key, asking each in turn. */
async function untilRefused(services: RunningService[]): Promise<number> {
  const started = performance.now();
  const left = new Set(services);
  for (;;) {
    for (const s of [...left]) if (await refuses(s)) left.delete(s);
    if (left.size === 0) return performance.now() - started;
  }
}

const describe = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, slowest ${sorted.at(-1)!.toFixed(0)} ms (${xs.length} rounds)`;
};

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, 'rounds', 5);
  const bin = findPostgres();
  if (!bin) throw new Error(`This benchmark needs PostgreSQL: ${HOW_TO_GET_POSTGRES}`);
  console.log(`\nHow soon instances act on an admin change (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)})...`);
  const cluster = await startPostgres({ bin });
  try {
    const url = await cluster.createDatabase('notice');
    const admin = await openAdmin({ kind: 'postgres', url });
    await admin.addClient(KEY);
    await admin.addUser(ANN.login, ANN.password, { hashParams: TEST_HASH_PARAMS });
    const proxy = await startSilencingProxy(url);
    const options = (databaseUrl: string) => ({
      databaseUrl,
      port: 0,
      logger: silentLogger,
      timeZone: 'Europe/Prague',
      // The calls that find the key refused would otherwise count as guesses, and lock the login.
      auth: { hashParams: TEST_HASH_PARAMS, throttle: { slowAfter: 1_000_000, lockAfter: 1_000_000 } },
    });
    const [a, b, c] = await Promise.all([startService(options(url)), startService(options(url)), startService(options(proxy.url))]);
    const accepted = (services: RunningService[]) =>
      untilPasses('the key to be accepted again', async () => {
        for (const s of services) await call(s, 'soap12', 'CategoryTree', ANN, {});
      });
    const watch = await ChannelWatch.open(url);
    const announced: number[] = [];
    const unheard: number[] = [];
    try {
      for (let round = 0; round < rounds; round++) {
        await accepted([a, b, c]);
        await admin.setClientEnabled(KEY, false);
        announced.push(await untilRefused([a, b]));
        await admin.setClientEnabled(KEY, true);

        await accepted([a, b, c]);
        // c listening again through the proxy (after the last round's break): every instance pings (only one that
        // takes itself to be listening does).
        await until('c to listen through the proxy', () => proxy.working('bookkeeping-listener') === 1, { deadlineMs: 30_000 });
        const mark = watch.mark;
        await until('every instance to ping', () => [...watch.pingsSince(mark).values()].filter((n) => n >= 2).length === 3, {
          deadlineMs: 30_000,
        });
        // c holds the key looked up as enabled (what only an announcement would make it drop); then its ear is cut.
        await accepted([c]);
        proxy.silence('bookkeeping-listener');
        await admin.setClientEnabled(KEY, false);
        unheard.push(await untilRefused([c]));
        await admin.setClientEnabled(KEY, true);
      }
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
      await watch.close();
      await proxy.close();
      await admin.close();
    }
    console.log(`Announced (two instances hear it):          ${describe(announced)}`);
    console.log(`Unheard (a silently broken listener, one):  ${describe(unheard)}`);
    console.log(`Unheard / announced, medians: ${(median(unheard) / median(announced)).toFixed(0)}x`);
  } finally {
    await cluster.stop();
  }
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
