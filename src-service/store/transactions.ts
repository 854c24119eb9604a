/**
 * Transactions (bookings on an account) on either store, and the last lists a reader answers from the
 * rows it keeps (kept-rows.ts).
 */
import { awaited, run, type Flow, type Maybe } from './flow';
import type { KeptTransactions } from './kept-rows';
import { LAST_N, transactionRow, type NewTransaction, type TransactionRow } from './rows';
import type { TransactionAccess } from './seam';
import type { StoreConnection } from './statements';

/** Where rows are read one id at a time: rows missing from the keep a list reads so; with more, it reads the list whole. */
const MISSES_READ_ONE_BY_ONE = 8;

const now = () => new Date().toISOString();

export interface TransactionOptions {
  /**
   * The rows this connection keeps once read: only on a connection that reads committed data (a row
   * written and rolled back must never be kept).
   */
  kept?: KeptTransactions;
  /** The serving writer's: the inserted rows are recorded, to be taken once committed (`takeInserted`). */
  recordInserts?: boolean;
  /** Called before each insert: the accounts' rows read before it (held for the booking) are not current after it. */
  onInsert?: () => void;
}

export class Transactions implements TransactionAccess {
  private readonly q;
  private readonly kept: KeptTransactions | undefined;
  /** The rows inserted and not yet handed on (`recordInserts`), for the reader once they are committed. */
  private inserted: TransactionRow[] | undefined;
  private readonly onInsert: (() => void) | undefined;

  constructor(
    private readonly db: StoreConnection,
    options: TransactionOptions = {},
  ) {
    this.q = db.statements.transactions;
    this.kept = options.kept;
    this.inserted = options.recordInserts ? [] : undefined;
    this.onInsert = options.onInsert;
  }

  last(accountId: number, limit = LAST_N): Maybe<readonly TransactionRow[]> {
    const kept = this.kept;
    if (!kept) return this.db.all(this.q.last, [accountId, limit]);
    if (limit === LAST_N) {
      const current = kept.currentList(accountId);
      if (current !== undefined) return current;
    }
    return run(this.lastFromKeep(kept, accountId, limit));
  }

  /**
   * The order from the index; the rows from the keep. Those it lacks (the ones just booked, mostly) are
   * read by their ids, and the list is read whole when that cannot be done (too many to read one by
   * one, a row gone, or the keep emptied meanwhile).
   */
  private *lastFromKeep(kept: KeptTransactions, accountId: number, limit: number): Flow<readonly TransactionRow[]> {
    const epoch = kept.epoch;
    const ids = yield* awaited(this.db.all(this.q.lastIds, [accountId, limit]));
    const found = kept.lookup(accountId, ids);
    if ('list' in found) return found.list;
    const read = yield* this.byIds(found.missing);
    const list = read !== undefined && kept.epoch === epoch ? kept.complete(accountId, ids, found.rows, read) : undefined;
    return list ?? (yield* this.wholeList(kept, accountId, limit));
  }

  /** The rows of these ids (those that exist); undefined when there are too many to read one by one. */
  private *byIds(ids: number[]): Flow<TransactionRow[] | undefined> {
    if (this.q.byIds !== null) return yield* awaited(this.db.all(this.q.byIds, [ids]));
    if (ids.length > MISSES_READ_ONE_BY_ONE) return undefined;
    const rows: TransactionRow[] = [];
    for (const id of ids) {
      const row = yield* awaited(this.db.get(this.q.byId, [id]));
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  private *wholeList(kept: KeptTransactions, accountId: number, limit: number): Flow<readonly TransactionRow[]> {
    const epoch = kept.epoch;
    const rows = yield* awaited(this.db.all(this.q.last, [accountId, limit]));
    // Forgotten meanwhile (rows changed behind the service's back): answered, not kept.
    return kept.epoch === epoch ? kept.keepList(accountId, kept.add(rows)) : rows;
  }

  /** Forgets the kept rows: another process has changed the stored rows. */
  forgetRows(): void {
    this.kept?.forget();
  }

  /** Rows committed by the serving writer: kept, and put into the kept lists (see KeptTransactions.booked). */
  booked(rows: readonly TransactionRow[]): void {
    this.kept?.booked(rows);
  }

  /** How many inserted rows are recorded now (a savepoint's mark). */
  get insertedCount(): number {
    return this.inserted?.length ?? 0;
  }

  /** Drops the rows recorded since `mark`: their savepoint was rolled back. */
  dropInsertedFrom(mark: number): void {
    if (this.inserted !== undefined) this.inserted.length = mark;
  }

  /** The rows recorded since the last take, handed on (the group committed) or dropped (it did not). */
  takeInserted(): TransactionRow[] {
    const rows = this.inserted ?? [];
    if (this.inserted !== undefined) this.inserted = [];
    return rows;
  }

  /** Inserts one transaction (the balance follows by trigger). Call inside a transaction. */
  insert(t: NewTransaction): Maybe<TransactionRow> {
    this.onInsert?.();
    return run(this.inserting(t));
  }

  private *inserting(t: NewTransaction): Flow<TransactionRow> {
    const id = yield* awaited(this.db.insert(this.q.insert, { ...t, transfer_id: null, created_at: now() }));
    return this.recorded(transactionRow(id, t));
  }

  insertTransfer(first: NewTransaction, second: NewTransaction): Maybe<[TransactionRow, TransactionRow]> {
    this.onInsert?.();
    return run(this.insertingTransfer(first, second));
  }

  /** Both halves carry one creation time, and the first half's id as the transfer's. */
  private *insertingTransfer(first: NewTransaction, second: NewTransaction): Flow<[TransactionRow, TransactionRow]> {
    const at = now();
    let ids: [number, number];
    if (this.q.insertTransfer !== null) {
      ids = (yield* awaited(this.db.get(this.q.insertTransfer, [first, second, at])))!;
    } else {
      const firstId = yield* awaited(this.db.insert(this.q.insert, { ...first, transfer_id: null, created_at: at }));
      const secondId = yield* awaited(this.db.insert(this.q.insert, { ...second, transfer_id: firstId, created_at: at }));
      yield* awaited(this.db.run(this.q.link, [firstId, firstId]));
      ids = [firstId, secondId];
    }
    return [this.recorded(transactionRow(ids[0], first)), this.recorded(transactionRow(ids[1], second))];
  }

  private recorded(row: TransactionRow): TransactionRow {
    this.inserted?.push(row);
    return row;
  }
}
