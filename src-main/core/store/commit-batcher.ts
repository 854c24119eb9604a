/**
 * Group commit: items submitted in the same turn of the event loop are written in one SQLite
 * transaction, so that parallel work pays for one durable commit (one fsync) instead of one each. A
 * submitter's promise resolves only once its item is committed. If the batch fails, each item is
 * retried in a transaction of its own, so that one bad item does not fail the others.
 */
import type { Store } from './store';

export class CommitBatcher<T> {
  private pending: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly store: Store,
    private readonly write: (item: T) => void,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    try {
      this.store.transaction(() => {
        for (const b of batch) this.write(b.item);
      });
      for (const b of batch) b.resolve();
    } catch {
      for (const b of batch) {
        try {
          this.store.transaction(() => this.write(b.item));
          b.resolve();
        } catch (e) {
          b.reject(e);
        }
      }
    }
  }
}
