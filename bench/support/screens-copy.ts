/**
 * The local copy the screens benchmark opens: `rows` transactions over ten years ending this year on 10
 * accounts (test/support/large-copy.ts, seeded), and one car with `fills` refuelings, one every few days
 * going back from today. Built once per size and seed into a cache folder under the system's temp folder
 * (a million rows take minutes to write) and copied from there for each run, since the app writes to the
 * copy it opens (preferences, the outbox).
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RefuelingRow } from '../../src-main/core/store/rows';
import { Store } from '../../src-main/core/store/store';
import { seededRandom } from '../../test/support/fault-proxy';
import { fillLargeCopy } from '../../test/support/large-copy';

export interface ScreensCopy {
  rows: number;
  fills: number;
  seed: number;
}

export const CAR = { carId: 7, name: 'Superb' } as const;
export const ACCOUNTS = 10;
export const YEARS = 10;
/** Bumped when what a cached copy holds changes, so that an old one is not reused. */
const LAYOUT = 1;

export const cacheDir = () => join(tmpdir(), 'bookkeeping-bench-cache');

function addFills(file: string, fills: number, seed: number): void {
  const random = seededRandom(seed + 1);
  const store = new Store(file);
  try {
    store.transaction(() => {
      store.cars.save({ ...CAR }, '2016-01-01T00:00:00');
      const rows: RefuelingRow[] = [];
      let day = Date.now() - fills * 5 * 86_400_000;
      let odometer = 20_000;
      for (let n = 1; n <= fills; n++) {
        day += (3 + Math.floor(random() * 5)) * 86_400_000;
        odometer += 350 + Math.floor(random() * 400);
        const liter = 30 + Math.floor(random() * 2000) / 100;
        const pricePerLiter = 34 + Math.floor(random() * 800) / 100;
        rows.push({
          id: n,
          carId: CAR.carId,
          dateOfPurchase: `${new Date(day).toISOString().slice(0, 10)}T${String(6 + (n % 14)).padStart(2, '0')}:20:00`,
          tachometer: odometer,
          liter: String(liter),
          price: (Math.round(liter * pricePerLiter * 100) / 100).toFixed(2),
          currency: 203,
          rate: '1',
          description: '',
          userCreatedId: 1,
        });
      }
      store.refuelings.upsert(rows);
    });
  } finally {
    store.close();
  }
}

/** The cached copy for `c`, built first when missing; its path (never to be opened for writing: copy it). */
export function cachedCopy(c: ScreensCopy, say: (line: string) => void): string {
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `screens-v${LAYOUT}-${c.rows}-rows-${c.fills}-fills-seed-${c.seed}.sqlite`);
  if (existsSync(file)) {
    say(`Reusing the local copy ${file}`);
    return file;
  }
  // Built under another name and renamed when whole: a build cut short is never taken for a finished one.
  const building = `${file}.building-${process.pid}`;
  rmSync(building, { force: true });
  const started = performance.now();
  say(`Writing a local copy of ${c.rows.toLocaleString('en')} transactions and ${c.fills} fills into ${file}...`);
  const firstYear = new Date().getUTCFullYear() - YEARS + 1;
  fillLargeCopy(building, { transactions: c.rows, accounts: ACCOUNTS, years: YEARS, firstYear, seed: c.seed });
  addFills(building, c.fills, c.seed);
  // One file, no -wal beside it: what is copied for each run is the whole copy.
  const store = new Store(building);
  store.asSingleFile();
  store.close();
  renameSync(building, file);
  // The store's folder of safety copies beside it, empty for a copy written straight through the store.
  rmSync(`${building}.backups`, { recursive: true, force: true });
  say(`(written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return file;
}

/** A copy of the cached copy at `to`, to be opened by the app. */
export function workingCopy(cached: string, to: string): string {
  copyFileSync(cached, to);
  return to;
}
