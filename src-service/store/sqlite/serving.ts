/**
 * The store as the running service uses it: two connections to one data file and group commit.
 *
 * - Reads run in one snapshot of committed data: a read never sees a write that is not yet committed, so
 *   no answer ever shows what a crash could still take back. While no group of writes is open, the
 *   writer's connection holds nothing but committed data, and reads run there; while one is open, on the
 *   reader, a connection of their own. SQLite empties a connection's page cache whenever another has
 *   committed since its last transaction, so the reader reread every page it needed after every group
 *   commit (a read after a commit cost two to three times one before it); the writer's cache stays, its
 *   own commits being the only ones.
 * - Writes run on the writer connection. The writes of every request handled in one turn of the event
 *   loop share one SQLite transaction (BEGIN IMMEDIATE when the first of them comes, COMMIT at the end
 *   of the turn), each inside a savepoint of its own: a write that fails is rolled back to its savepoint
 *   alone, and the others go on. A write's promise settles only after the COMMIT has returned, so a
 *   request is answered only once its write is in the WAL: with WAL and synchronous=NORMAL a commit is
 *   written to the file (not yet fsynced) before COMMIT returns, which is what makes an answered write
 *   survive kill -9 of the process, one write per transaction or many.
 *
 * What changes is the cost: one COMMIT, one set of WAL frames for the pages many writes touched, instead
 * of one per write.
 *
 * The reads of one turn of the event loop share one snapshot the same way: a read transaction begins at
 * the turn's first read and ends at the turn's end, when a group begins (see `write`) and when it
 * commits, so that a read after a write's answer always sees it (each read began and ended its own
 * transaction before: two statements and a lock of the WAL's read mark per request).
 */
import { setImmediate } from 'node:timers';
import type { Statement } from 'better-sqlite3';
import { LoginThrottle, type LoginGuard, type ThrottleOptions } from '../../auth/login-throttle';
import { runNow } from '../flow';
import type { ServiceStore, StoreFlow } from '../seam';
import { Checkpointer, RESTART_FRAMES } from './checkpointer';
import { openDatabase } from './database';
import { Store } from './store';

interface Member {
  settle: () => void;
  fail: (e: unknown) => void;
}

export class ServingStore {
  /** The reader: sees committed data only. */
  readonly reads: Store;
  private readonly writes: Store;
  /** The writer's connection as a reader, with the reader's kept rows: used while no group is open. */
  private readonly warm: Store;
  private readonly begin;
  private readonly commitStmt;
  private readonly rollbackStmt;
  private readonly dataVersion;
  /** The connection (the reader, or the writer between groups) whose snapshot this turn's reads share. */
  private snapshot: Store | undefined;
  private readonly snapshotStatements = new Map<Store, { begin: Statement; end: Statement }>();
  /** The writes of the open group, answered when it commits. */
  private group: Member[] = [];
  private commitScheduled = false;
  private closed = false;
  private lastVersion = -1;
  private outsideCount = 0;
  private commitCount = 0;
  private generationCount = 0;
  private versionFresh = false;

  private readonly checkpointer: Checkpointer;

  private constructor(file: string, onCheckpointFailure: (reason: string) => void) {
    // The writer first: it creates and migrates the file when needed.
    this.writes = new Store(openDatabase(file), { recordInserts: true });
    // Only the reader keeps rows: it sees committed rows alone, which never change but from outside.
    // Every row this process adds is handed to it once committed (so its kept last lists stay current
    // without asking the index); a commit of another process empties its keep (lookOutside).
    this.reads = new Store(openDatabase(file), { keepRows: true });
    this.warm = new Store(this.writes.db, { kept: this.reads.kept! });
    for (const store of [this.reads, this.warm]) {
      this.snapshotStatements.set(store, { begin: store.db.prepare('BEGIN DEFERRED'), end: store.db.prepare('COMMIT') });
    }
    const db = this.writes.db;
    db.pragma('wal_autocheckpoint = 0');
    // Each write's savepoint journals the pages it changes; in memory, not in a temporary file (the
    // file's writes were a tenth of a transfer's CPU).
    db.pragma('temp_store = MEMORY');
    // A WAL started over (see Checkpointer) is trimmed to what a restart lets grow.
    db.pragma(`journal_size_limit = ${RESTART_FRAMES * 4096}`);
    this.checkpointer = new Checkpointer(file, (reason) => {
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
      onCheckpointFailure(reason);
    });
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commitStmt = db.prepare('COMMIT');
    this.rollbackStmt = db.prepare('ROLLBACK');
    // data_version of the writer changes with every commit of another connection: the reader and the
    // checkpointer never commit, so it counts the commits of other processes (the admin command line).
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** `onCheckpointFailure` is told (for the log) when checkpoints fall back to the writer. */
  static open(file: string, onCheckpointFailure: (reason: string) => void = () => {}): ServingStore {
    return new ServingStore(file, onCheckpointFailure);
  }

  /** The users and client keys as committed (the credential check reads them). */
  get users(): Store['users'] {
    return this.reads.users;
  }

  /** Runs `fn`, which only reads, in one snapshot of the committed data: this turn's (see above). */
  read<T>(fn: (store: Store) => T): T {
    if (this.closed) throw new Error('The data file is closed.');
    this.lookOutside();
    let store = this.snapshot;
    if (store === undefined) {
      store = this.writes.db.inTransaction ? this.reads : this.warm;
      this.snapshotStatements.get(store)!.begin.run();
      this.snapshot = store;
    }
    return fn(store);
  }

  /** Ends this turn's snapshot: the next read begins one on the data committed by then. */
  private endSnapshot(): void {
    const store = this.snapshot;
    if (store === undefined) return;
    this.snapshot = undefined;
    if (store.db.inTransaction) this.snapshotStatements.get(store)!.end.run();
  }

  /**
   * Runs `fn` (synchronously, now) in a savepoint of the current group transaction; resolves with its
   * result, or rejects with its error, once the group is committed. Should the commit itself fail, every
   * write of the group rejects with that error: none of them is in the file.
   */
  write<T>(fn: (store: Store) => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The data file is closed.'));
    const db = this.writes.db;
    // A snapshot on the writer's connection ends before its group begins; one on the reader's too: a
    // checkpoint restarting the WAL waits for every reader to be on the newest data, and the writer for
    // it (the reader would wait for the writer's thread).
    if (this.snapshot === this.warm || !db.inTransaction) this.endSnapshot();
    if (!db.inTransaction) {
      try {
        // Waits up to the busy timeout when another process (the admin command line) is writing.
        this.begin.run();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (!this.commitScheduled) {
      this.commitScheduled = true;
      // After the I/O callbacks of this turn: every request read in it has had its turn to write.
      setImmediate(() => this.commit());
    }
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    const mark = this.writes.transactions.insertedCount;
    try {
      // Nested in the open transaction, Store.write takes a savepoint: a failure undoes this write alone.
      outcome = { ok: true, value: this.writes.write(() => fn(this.writes)) };
    } catch (error) {
      outcome = { ok: false, error };
      // Its savepoint was rolled back: the rows it inserted are not in the group.
      this.writes.transactions.dropInsertedFrom(mark);
      // An I/O error or a full disk may have rolled back the whole transaction: then the writes before
      // this one are gone too, and are told so.
      if (!db.inTransaction) this.abandon(error);
    }
    return new Promise<T>((resolve, reject) => {
      const member: Member = {
        settle: () => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)),
        fail: reject,
      };
      if (db.inTransaction) this.group.push(member);
      else if (outcome.ok) member.fail(new Error('The write was rolled back.'));
      else member.settle();
    });
  }

  /** Commits the open group and settles its writes. */
  private commit(): void {
    this.commitScheduled = false;
    const group = this.group;
    this.group = [];
    const booked = this.writes.transactions.takeInserted();
    if (!this.writes.db.inTransaction) return;
    try {
      this.commitStmt.run();
    } catch (error) {
      if (this.writes.db.inTransaction) this.rollbackStmt.run();
      this.generationCount += 1;
      for (const m of group) m.fail(error);
      return;
    }
    // Before any write is answered: a read that follows an answer sees its rows in the kept lists, and
    // its commit (the snapshot of reads begun before is over).
    this.endSnapshot();
    this.reads.transactions.booked(booked);
    this.generationCount += 1;
    this.commitCount += 1;
    for (const m of group) m.settle();
  }

  /** Group transactions committed so far (diagnostics, tests). */
  get commits(): number {
    return this.commitCount;
  }

  private abandon(error: unknown): void {
    this.writes.transactions.takeInserted();
    const group = this.group;
    this.group = [];
    this.generationCount += 1;
    for (const m of group) m.fail(error);
  }

  /**
   * A number that changes whenever the data may have changed: after each group commit, and when a
   * commit by another process is seen. Caches of derived answers are valid only while it stays the same.
   */
  generation(): number {
    this.lookOutside();
    return this.generationCount;
  }

  /**
   * A number that changes only when another process (the admin command line) has committed: users,
   * passwords and client keys change only that way, and stored transactions only ever that way.
   */
  outsideGeneration(): number {
    this.lookOutside();
    return this.outsideCount;
  }

  private lookOutside(): void {
    // PRAGMA data_version costs as much as a small query: it is asked once per turn of the event loop.
    // A commit by another process within the turn is then seen at the next one; the generations can
    // only lag the data, never run ahead of it, so nothing is ever kept under a generation newer than
    // the data it was built from.
    if (this.versionFresh) return;
    this.versionFresh = true;
    setImmediate(() => {
      this.versionFresh = false;
      this.endSnapshot();
    });
    const version = this.dataVersion.get()!;
    if (version === this.lastVersion) return;
    this.lastVersion = version;
    this.outsideCount += 1;
    this.generationCount += 1;
    this.reads.forgetRows();
  }

  /**
   * Commits what is pending and closes the connections, the checkpointer's first: the writer, closed
   * last, checkpoints what is left and removes the WAL, so nothing touches the file once this resolves.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.commit();
    this.endSnapshot();
    await this.checkpointer.close();
    this.reads.close();
    this.writes.close();
  }
}

/** The SQLite store behind the seam: flows run at once, on the reader or in the group commit. */
export class SqliteServiceStore implements ServiceStore {
  readonly groupsCommits = true;
  /** One process writes the file; a commit of another is seen (data_version) before the next read. */
  readonly knowsEveryCommit = true;

  constructor(readonly serving: ServingStore) {}

  static open(file: string, onCheckpointFailure?: (reason: string) => void): SqliteServiceStore {
    return new SqliteServiceStore(ServingStore.open(file, onCheckpointFailure));
  }

  read<T>(flow: StoreFlow<T>): T {
    return this.serving.read((store) => runNow(flow(store)));
  }

  write<T>(flow: StoreFlow<T>): Promise<T> {
    return this.serving.write((store) => runNow(flow(store)));
  }

  get credentials(): Store['users'] {
    return this.serving.users;
  }

  generation(): number {
    return this.serving.generation();
  }

  outsideGeneration(): number {
    return this.serving.outsideGeneration();
  }

  /** One process serves the file: the throttle lives in it. */
  loginGuard(
    options: Partial<ThrottleOptions>,
    now: () => number,
    onLock: (login: string, failures: number, ms: number) => void,
  ): LoginGuard {
    return new LoginThrottle(options, now, onLock);
  }

  close(): Promise<void> {
    return this.serving.close();
  }
}
