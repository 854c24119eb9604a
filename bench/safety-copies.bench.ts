/**
 * `npm run bench -- safety-copies [--sizes=100000,1000000]`: what one safety copy costs (VACUUM INTO and the
 * quick check of what it wrote, store/safety-copies.ts) on local copies of a decade's size and more, next to a
 * plain SQLite online backup of the same copy and to the quick check alone, in one run; and the longest the
 * event loop was held while it was written: made in the process (before a migration or a restore, which wait
 * for it) it is held the whole time, made in the background (after a sync, daily) by a worker thread.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSoundCopy } from '../src-main/core/store/safety-copies';
import { Store } from '../src-main/core/store/store';
import { fillLargeCopy } from '../test/support/large-copy';

const ROUNDS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** The longest gap between the ticks of a 1 ms timer while `fn` ran: how long the event loop was held, in ms. */
async function longestStall(fn: () => unknown): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 1);
  const ticks = () => new Promise((done) => setTimeout(done, 5));
  await ticks();
  await fn();
  await ticks();
  clearInterval(ticker);
  return longest;
}

export async function run(args: string[]): Promise<void> {
  const sizes = (args.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length) ?? '100000,1000000').split(',').map(Number);
  for (const transactions of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-bench-safety-'));
    try {
      const file = join(dir, 'local.sqlite');
      fillLargeCopy(file, { transactions, accounts: 10, years: 10, firstYear: 2016 });
      const store = new Store(file, { noSafetyCopies: true });
      const safety: number[] = [];
      const backup: number[] = [];
      const check: number[] = [];
      const background: number[] = [];
      const stalls = { held: [] as number[], background: [] as number[] };
      let copy = '';
      for (let i = 0; i < ROUNDS; i++) {
        stalls.held.push(await longestStall(async () => safety.push(await timed(() => (copy = store.keepSafetyCopy('after-sync'))))));
        stalls.background.push(await longestStall(async () => background.push(await timed(() => store.inBackground('after-sync')))));
        backup.push(await timed(() => store.db.backup(join(dir, `plain-${i}.sqlite`))));
        check.push(await timed(() => isSoundCopy(copy)));
      }
      store.close();
      const mib = (statSync(file).size / 1048576).toFixed(0);
      const s = median(safety);
      console.log(
        `${transactions.toLocaleString('en')} transactions (${mib} MiB): safety copy ${s.toFixed(0)} ms (median of ${ROUNDS}); ` +
          `online backup alone ${median(backup).toFixed(0)} ms (${(median(backup) / s).toFixed(2)}x), quick check alone ${median(check).toFixed(0)} ms (${(median(check) / s).toFixed(2)}x)\n` +
          `  event loop held at most ${median(stalls.held).toFixed(0)} ms by a copy made in the process; ` +
          `${median(stalls.background).toFixed(0)} ms by one made in the background, which took ${median(background).toFixed(0)} ms`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
