/**
 * Pull: read everything the service lists for the user, then write it into the local copy in one
 * transaction. Independent reads run in parallel (bounded); every read is retried a few times when it
 * fails on the way. Any read that still fails aborts the pull before anything is written, so a failed
 * pull changes nothing locally.
 */
import type { PulledCounts } from '../../../src-shared/app-api';
import { quickBudget, withRetry, type RetryBudget, type SoapClient } from '../soap-client';
import {
  accountFromApi,
  categoriesFromApi,
  refuelingFromApi,
  templateFromApi,
  transactionsFromApi,
  type RefuelingRow,
  type TransactionRow,
} from '../store/rows';
import type { PulledData, Store } from '../store/store';
import { createAdaptiveLimiter, isTransientFailure } from '../util/adaptive-limiter';

export interface PullOptions {
  /** Requests in flight at once, at most (the limit adapts below it to the round trip; 1: one at a time). */
  concurrency?: number;
  /** Requests in flight at first (default 4). */
  initialConcurrency?: number;
  /** Retries of failed reads, shared with the rest of the sync (default: a few quick tries). */
  budget?: RetryBudget;
  onProgress?: (done: number, total: number) => void;
}

export const DEFAULT_PULL_CONCURRENCY = 32;

/** Reads the service's whole data set for the user (and the refuelings of the given cars). */
export async function fetchAll(client: SoapClient, carIds: readonly number[], options: PullOptions = {}): Promise<PulledData> {
  const concurrency = options.concurrency ?? DEFAULT_PULL_CONCURRENCY;
  const budget = options.budget ?? quickBudget();
  const limit = createAdaptiveLimiter({ initial: options.initialConcurrency ?? 4, max: concurrency, isOverload: isTransientFailure });
  let done = 0;
  let total = 3 + carIds.length;
  /** The first read that failed for good: the pull's failure, whichever branch is awaited first. */
  let failure: { error: unknown } | null = null;
  const step = <T>(read: () => Promise<T>) =>
    limit(() => (failure ? Promise.reject(failure.error) : withRetry(read, budget))).then(
      (r) => {
        options.onProgress?.(++done, total);
        return r;
      },
      (e) => {
        // Reads still waiting for their turn are not started once one has failed for good.
        failure ??= { error: e };
        throw failure.error;
      },
    );

  // The account list goes first and alone: it decides which transaction lists to read, and it checks the
  // credentials. Refused ones then cost the service one failed login per sync, not one per request in
  // flight (a service locks a login after a few failures, and the user still has to type the right
  // password). The other lists start with the transaction lists, as soon as it is in.
  const accountsRead = step(() => client.listAccounts());
  const others = (async () => {
    await accountsRead;
    return Promise.all([
      step(() => client.listTemplates()),
      step(() => client.call('CategoryTree', {})),
      Promise.all(carIds.map((carId) => step(() => client.call('CarFuelList', { CarId: carId })))),
    ]);
  })();
  // Let the others settle (or fail) together with the account branch, so no read is left unobserved.
  others.catch(() => undefined);

  const accounts = (await accountsRead).map(accountFromApi);
  total += accounts.length;
  options.onProgress?.(done, total);
  const lists = await Promise.all(accounts.map((a) => step(() => client.listTransactions(a.id))));
  const [templates, tree, fuel] = await others;

  const transactions = new Map<number, TransactionRow[]>();
  accounts.forEach((a, i) => transactions.set(a.id, transactionsFromApi(a.id, lists[i]!.items)));
  const refuelings = new Map<number, RefuelingRow[]>();
  carIds.forEach((carId, i) =>
    refuelings.set(
      carId,
      fuel[i]!.map((r) => ({ ...refuelingFromApi(r), carId })),
    ),
  );
  return {
    accounts,
    transactions,
    templates: templates.map(templateFromApi),
    categories: categoriesFromApi(tree),
    refuelings,
  };
}

export function countsOf(data: PulledData): PulledCounts {
  let transactions = 0;
  for (const rows of data.transactions.values()) transactions += rows.length;
  let refuelings = 0;
  for (const rows of data.refuelings.values()) refuelings += rows.length;
  return {
    accounts: data.accounts.length,
    transactions,
    templates: data.templates.length,
    categories: data.categories.all.length,
    refuelings,
  };
}

/**
 * Fetches everything and writes it into the local copy in one transaction. Returns the records the
 * service listed, and of them those new or changed here (and those it no longer lists): what it brought.
 */
export async function pull(
  client: SoapClient,
  store: Store,
  options: PullOptions = {},
): Promise<{ listed: PulledCounts; changed: PulledCounts }> {
  const data = await fetchAll(
    client,
    store.cars.list().map((c) => c.carId),
    options,
  );
  const changed = store.serverCopy.apply(data);
  return { listed: countsOf(data), changed };
}
