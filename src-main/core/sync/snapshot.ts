/**
 * The service's current lists as one push sees them: read when a write first needs them (the record
 * an edit merges with, what existed before a create was sent), then kept up to date with the answers
 * to this push's own writes. A check of unknown outcomes starts from a fresh snapshot.
 */
import type { ApiAccount2, ApiCarFuel, ApiCategoryTree, ApiTransaction2 } from '../../../src-shared/catalog';
import { withRetry, type ListedTransaction, type RetryBudget, type SoapClient } from '../soap-client';
import { categoriesFromApi, type CategoryRow } from '../store/rows';

export interface TransactionWindow {
  items: ListedTransaction[];
  hasIds: boolean;
}

/** Where one remembered read is kept. */
interface Slot<T> {
  get(): Promise<T> | null;
  set(p: Promise<T> | null): void;
}

function keyed<K, T>(map: Map<K, Promise<T>>, key: K): Slot<T> {
  return { get: () => map.get(key) ?? null, set: (p) => (p ? map.set(key, p) : map.delete(key)) };
}

export class ServerSnapshot {
  private accountsP: Promise<Map<number, ApiAccount2>> | null = null;
  private categoriesP: Promise<{ tree: ApiCategoryTree; rows: CategoryRow[] }> | null = null;
  private readonly windows = new Map<number, Promise<TransactionWindow>>();
  private readonly fuel = new Map<number, Promise<ApiCarFuel[]>>();
  private readonly accountsSlot: Slot<Map<number, ApiAccount2>> = { get: () => this.accountsP, set: (p) => void (this.accountsP = p) };
  private readonly categoriesSlot: Slot<{ tree: ApiCategoryTree; rows: CategoryRow[] }> = {
    get: () => this.categoriesP,
    set: (p) => void (this.categoriesP = p),
  };

  constructor(
    private readonly client: SoapClient,
    /** Retries of failed reads, shared with the rest of the sync. */
    private readonly budget: RetryBudget,
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

  /**
   * Keeps `p` in the slot until it fails: a failed read is not remembered, so the next use reads
   * again. The handler also marks the rejection handled for a promise that no one may await.
   */
  private remember<T>(slot: Slot<T>, p: Promise<T>): Promise<T> {
    slot.set(p);
    p.catch(() => {
      if (slot.get() === p) slot.set(null);
    });
    return p;
  }

  private memo<T>(slot: Slot<T>, read: () => Promise<T>): Promise<T> {
    return (
      slot.get() ??
      this.remember(
        slot,
        withRetry(() => this.limit(read), this.budget),
      )
    );
  }

  /** Lays one of this push's own results over a remembered read (even one still in flight). */
  private amend<T>(slot: Slot<T>, change: (value: T) => T): void {
    const p = slot.get();
    // remember() handles its rejection: the amended read is awaited by whoever asks next.
    if (p) void this.remember(slot, p.then(change));
  }

  accounts(): Promise<Map<number, ApiAccount2>> {
    return this.memo(this.accountsSlot, async () => new Map((await this.client.listAccounts()).map((a) => [a.Id, a])));
  }

  /** The accounts read again: every transfer moves balances, which this push's answers do not show. */
  freshAccounts(): Promise<Map<number, ApiAccount2>> {
    this.accountsP = null;
    return this.accounts();
  }

  categories(): Promise<{ tree: ApiCategoryTree; rows: CategoryRow[] }> {
    return this.memo(this.categoriesSlot, async () => {
      const tree = await this.client.call('CategoryTree', {});
      return { tree, rows: categoriesFromApi(tree).all };
    });
  }

  transactions(accountId: number): Promise<TransactionWindow> {
    return this.memo(keyed(this.windows, accountId), () => this.client.listTransactions(accountId));
  }

  refuelings(carId: number): Promise<ApiCarFuel[]> {
    return this.memo(keyed(this.fuel, carId), () => this.client.call('CarFuelList', { CarId: carId }));
  }

  // ---- this push's own results ---------------------------------------------------------------

  noteAccount(a: ApiAccount2): void {
    this.amend(this.accountsSlot, (m) => new Map(m).set(a.Id, a));
  }

  noteCategories(tree: ApiCategoryTree): void {
    this.categoriesP = Promise.resolve({ tree, rows: categoriesFromApi(tree).all });
  }

  noteTransactions(...items: ApiTransaction2[]): void {
    for (const t of items) this.amend(keyed(this.windows, t.Id_Account), (x) => ({ ...x, items: [t, ...x.items] }));
  }

  noteRefueling(r: ApiCarFuel): void {
    for (const carId of [...this.fuel.keys()]) {
      this.amend(keyed(this.fuel, carId), (list) => {
        const others = list.filter((x) => x.Id !== r.Id);
        return r.Id_Car === carId ? [r, ...others] : others;
      });
    }
  }
}
