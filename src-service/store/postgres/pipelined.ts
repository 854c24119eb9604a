/**
 * A write's transaction in as few round trips as its statements allow, on a connection in node-postgres's
 * pipeline mode (a query is written at once, not after the answer of the one before; each is answered in
 * its turn):
 *
 * - `BEGIN` is written with the write's first statement: one round trip for both (a booking's first
 *   statement is its hold of the accounts).
 * - A statement that is the last store call of every flow it is in (`COMMITS_WITH`) is written with the
 *   `COMMIT` behind it: one round trip for both. Should the statement fail, PostgreSQL ends the aborted
 *   transaction at that COMMIT with a rollback: nothing is written, and the write runs again or fails as
 *   it did before.
 *
 * A transfer was four round trips (`BEGIN`, the hold, the insert of both halves, `COMMIT`), each a wake-up
 * of the instance and of its backend, and the accounts stayed locked across three of the instance's turns
 * of its event loop (under load, milliseconds each, while every other transfer on those accounts waited).
 * Now it is two, and they stay locked across one. The rules stay where they are (the operation's flow, run
 * on the rows the hold read), so its answers and errors are the same, byte for byte.
 */
import type pg from 'pg';
import type { StatementRunner } from './connection';

/**
 * The statements a write commits with. Each must be the last store call of every flow that makes it:
 * `transactions.insertTransfer` is AddTranferToOtherAccount's, after every rule has been checked.
 */
export const COMMITS_WITH: ReadonlySet<string> = new Set(['transactions.insertTransfer']);

interface Outcome {
  /** The command's tag (`COMMIT`, or `ROLLBACK` for a COMMIT that ended an aborted transaction), or its error. */
  command?: string;
  error?: unknown;
}

/** A query's outcome, never a rejection (so that one sent ahead and awaited later is never an unhandled one). */
function outcome(query: Promise<pg.QueryResult>): Promise<Outcome> {
  return query.then(
    (r) => ({ command: r.command }),
    (error: unknown) => ({ error }),
  );
}

export class PipelinedTransaction {
  private readonly begun: Promise<Outcome>;
  private committing: Promise<Outcome> | undefined;
  private sent = 0;

  /** Writes `BEGIN` (answered with the first statement). */
  constructor(
    private readonly client: pg.Client,
    private readonly commitsWith: ReadonlySet<string> = COMMITS_WITH,
  ) {
    if (!client.pipeline) throw new Error('A pipelined transaction needs a connection in pipeline mode.');
    // BEGIN and the first statement, handed over in the same turn (a flow's first store call is made as it
    // starts), go out in one write of the socket.
    const stream = client.connection.stream;
    stream.cork();
    process.nextTick(() => stream.uncork());
    this.begun = outcome(client.query('BEGIN'));
  }

  /** A statement of the write (after its COMMIT was written, none). */
  readonly query = (config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult> => {
    if (this.committing !== undefined) {
      return Promise.reject(new Error(`A statement (${config.name ?? config.text}) after the one its write commits with.`));
    }
    // The first goes out behind BEGIN at once. Any later one is written only once BEGIN is known to have
    // worked (it was answered before the first statement was: no wait), so never outside the transaction.
    const commits = config.name !== undefined && this.commitsWith.has(config.name);
    const write = () => {
      // The statement and the COMMIT behind it in one write of the socket.
      const stream = this.client.connection.stream;
      stream.cork();
      try {
        return { result: this.client.query(config), commit: commits ? this.commitNow() : undefined };
      } finally {
        stream.uncork();
      }
    };
    if (this.sent++ === 0) {
      const written = write();
      this.committing = written.commit;
      return written.result;
    }
    const written = this.begun.then((b) => (b.error ? Promise.reject(b.error) : write()));
    if (commits) {
      this.committing = written.then(
        (w) => w.commit!,
        (error: unknown) => ({ error }),
      );
    }
    return written.then((w) => w.result);
  };

  private commitNow(): Promise<Outcome> {
    return outcome(this.client.query('COMMIT'));
  }

  /** Commits (unless written already with the last statement); rejects when BEGIN or COMMIT failed. */
  async commit(): Promise<void> {
    const begun = await this.begun;
    const committed = await (this.committing ?? this.commitNow());
    if (begun.error) throw begun.error;
    if (committed.error) throw committed.error;
    if (committed.command !== 'COMMIT') throw new Error('The write was rolled back at its commit.');
  }

  /**
   * After the flow failed: rolls back, unless the COMMIT was written already; then it waits for its answer
   * and says whether the write was committed (the flow failed after its last statement). A failed ROLLBACK
   * rejects (the connection is not to be used again).
   */
  async abandon(): Promise<{ committed: boolean }> {
    await this.begun;
    if (this.committing !== undefined) {
      const committed = await this.committing;
      return { committed: committed.command === 'COMMIT' };
    }
    const rolledBack = await outcome(this.client.query('ROLLBACK'));
    if (rolledBack.error) throw rolledBack.error;
    return { committed: false };
  }
}

/**
 * Runs `fn` in a pipelined transaction on a connection of `pool` (which must be in pipeline mode): its
 * result once committed; its error when it failed (rolled back, or, when it failed after the statement
 * its write commits with, committed: then `committedAnyway` is called first). The connection goes back
 * to the pool once every statement written on it is answered, or is discarded when its ROLLBACK failed.
 */
export async function pipelinedWrite<T>(pool: pg.Pool, fn: (tx: StatementRunner) => Promise<T>, committedAnyway: () => void): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const tx = new PipelinedTransaction(client);
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      const ended = await tx.abandon().catch((rollbackError: Error) => {
        broken = rollbackError;
        return { committed: false };
      });
      if (ended.committed) committedAnyway();
      throw e;
    }
    await tx.commit();
    return result;
  } finally {
    client.release(broken);
  }
}
