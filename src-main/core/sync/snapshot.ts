/**
 * The service's current lists as one push sees them: read when a write first needs them (the record
 * an edit merges with, what existed before a create was sent), then kept up to date with the answers
 * to this push's own writes. A check of unknown outcomes starts from a fresh snapshot.
 */
import type { ApiAccount2, ApiCarFuel, ApiCategoryTree, ApiTransaction2 } from '../../../src-shared/catalog';
import { withRetry, type ListedTransaction, type RetryPolicy, type SoapClient } from '../soap-client';
import { categoriesFromApi, type CategoryRow } from '../store/rows';

export interface TransactionWindow {
  items: ListedTransaction[];
  hasIds: boolean;
}

export class ServerSnapshot {
  private accountsP: Promise<Map<number, ApiAccount2>> | null = null;
  private categoriesP: Promise<{ tree: ApiCategoryTree; rows: CategoryRow[] }> | null = null;
  private readonly windows = new Map<number, Promise<TransactionWindow>>();
  private readonly fuel = new Map<number, Promise<ApiCarFuel[]>>();

  constructor(
    private readonly client: SoapClient,
    private readonly retry: RetryPolicy,
    /** Bounds the requests in flight, shared with the writes of the same push. */
    private readonly limit: <T>(request: () => Promise<T>) => Promise<T> = (r) => r(),
  ) {}

  /** Forgets everything read, so that the next reads are fresh. */
  invalidate(): void {
    this.accountsP = null;
    this.categoriesP = null;
    this.windows.clear();
    this.fuel.clear();
  }

  private memo<T>(get: () => Promise<T> | null, set: (p: Promise<T> | null) => void, read: () => Promise<T>): Promise<T> {
    let p = get();
    if (!p) {
      p = withRetry(() => this.limit(read), this.retry);
      set(p);
      // A failed read is not remembered: the next use reads again.
      p.catch(() => {
        if (get() === p) set(null);
      });
    }
    return p;
  }

  accounts(): Promise<Map<number, ApiAccount2>> {
    return this.memo(
      () => this.accountsP,
      (p) => (this.accountsP = p),
      async () => new Map((await this.client.listAccounts()).map((a) => [a.Id, a])),
    );
  }

  categories(): Promise<{ tree: ApiCategoryTree; rows: CategoryRow[] }> {
    return this.memo(
      () => this.categoriesP,
      (p) => (this.categoriesP = p),
      async () => {
        const tree = await this.client.call('CategoryTree', {});
        return { tree, rows: categoriesFromApi(tree).all };
      },
    );
  }

  transactions(accountId: number): Promise<TransactionWindow> {
    return this.memo(
      () => this.windows.get(accountId) ?? null,
      (p) => (p ? this.windows.set(accountId, p) : this.windows.delete(accountId)),
      () => this.client.listTransactions(accountId),
    );
  }

  refuelings(carId: number): Promise<ApiCarFuel[]> {
    return this.memo(
      () => this.fuel.get(carId) ?? null,
      (p) => (p ? this.fuel.set(carId, p) : this.fuel.delete(carId)),
      () => this.client.call('CarFuelList', { CarId: carId }),
    );
  }

  // ---- this push's own results ---------------------------------------------------------------

  noteAccount(a: ApiAccount2): void {
    if (!this.accountsP) return;
    this.accountsP = this.accountsP.then((m) => new Map(m).set(a.Id, a));
  }

  noteCategories(tree: ApiCategoryTree): void {
    this.categoriesP = Promise.resolve({ tree, rows: categoriesFromApi(tree).all });
  }

  noteTransactions(...items: ApiTransaction2[]): void {
    for (const t of items) {
      const w = this.windows.get(t.Id_Account);
      if (w) this.windows.set(t.Id_Account, w.then((x) => ({ ...x, items: [t, ...x.items] })));
    }
  }

  noteRefueling(r: ApiCarFuel): void {
    for (const [carId, p] of this.fuel) {
      this.fuel.set(
        carId,
        p.then((list) => {
          const others = list.filter((x) => x.Id !== r.Id);
          return r.Id_Car === carId ? [r, ...others] : others;
        }),
      );
    }
  }
}
