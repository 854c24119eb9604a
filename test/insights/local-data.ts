/**
 * A local copy filled straight through the store, as a long run of syncs would have left it: accounts,
 * a category tree, a transaction history far beyond the service's last 50, cars and refuelings. Tests
 * then open a real app core on the file.
 */
import type { AppCore } from '../../src-main/core/app/app-core';
import type { AccountRow, CategoryRow, RefuelingRow, TransactionRow } from '../../src-main/core/store/rows';
import { Store } from '../../src-main/core/store/store';
import { openCore, tempDir } from '../support/client';

export type AccountSeed = Pick<AccountRow, 'id' | 'name' | 'currency' | 'balance'> & Partial<AccountRow>;
export type TransactionSeed = Pick<TransactionRow, 'id' | 'accountId' | 'paymentDate' | 'amount'> & Partial<TransactionRow>;
export type RefuelingSeed = Pick<RefuelingRow, 'id' | 'carId' | 'dateOfPurchase' | 'tachometer' | 'liter' | 'price'> &
  Partial<RefuelingRow>;

export interface LocalSeed {
  accounts?: AccountSeed[];
  categories?: Pick<CategoryRow, 'id' | 'name' | 'parentId'>[];
  transactions?: TransactionSeed[];
  cars?: { carId: number; name: string }[];
  refuelings?: RefuelingSeed[];
}

export function account(a: AccountSeed): AccountRow {
  return { description: '', type: 2, isActive: true, locked: false, isHidden: false, ord: a.id, permission: 3, ...a };
}

export function transaction(t: TransactionSeed): TransactionRow {
  return {
    key: t.id === null ? `h:${t.accountId}:${t.paymentDate}:${t.amount}` : `id:${t.id}`,
    type: 2,
    description: '',
    categoryId: 0,
    userId: 1,
    userCreatedId: 1,
    ...t,
  };
}

export function refueling(r: RefuelingSeed): RefuelingRow {
  return { currency: 203, rate: '1', description: '', userCreatedId: 1, ...r };
}

/** Writes the seed into the local copy at `file` (created when missing). */
export function seedLocal(file: string, seed: LocalSeed): void {
  const store = new Store(file);
  try {
    store.transaction(() => {
      seed.accounts?.forEach((a, position) => store.accounts.upsert(account(a), position));
      if (seed.categories) store.categories.replace({ all: seed.categories.map((c, position) => ({ ...c, position })), favorites: [] });
      store.transactions.upsert((seed.transactions ?? []).map(transaction));
      for (const c of seed.cars ?? []) store.cars.save(c, '2026-01-01T00:00:00');
      store.refuelings.upsert((seed.refuelings ?? []).map(refueling));
    });
  } finally {
    store.close();
  }
}

export interface SeededCore {
  core: AppCore;
  file: string;
  done(): Promise<void>;
}

/** A core on a fresh local copy holding the seed. */
export function seededCore(seed: LocalSeed): SeededCore {
  const tmp = tempDir('bookkeeping-insights-');
  const file = tmp.file('local.sqlite');
  seedLocal(file, seed);
  const core = openCore(file);
  return {
    core,
    file,
    async done() {
      await core.close();
      tmp.remove();
    },
  };
}
