/**
 * The statements (statements.ts) on one better-sqlite3 connection: each prepared once when the
 * connection opens, so a call costs only its execution, and every call answers at once. Rows are read
 * as arrays (better-sqlite3 builds them much faster than objects with named keys) and made into the
 * statement's rows by its selection.
 */
import type Database from 'better-sqlite3';
import { SQLITE } from '../dialect';
import type { Statement } from '../sql';
import { everyStatement, statementsFor, type StoreConnection } from '../statements';
import type { Db } from './database';

export class SqliteConnection implements StoreConnection {
  readonly statements = statementsFor(SQLITE);
  /** By the statement's index. */
  private readonly prepared: Database.Statement<unknown[], unknown>[] = [];

  constructor(db: Db) {
    for (const s of everyStatement(this.statements)) {
      const prepared = db.prepare<unknown[], unknown>(s.text);
      this.prepared[s.index] = s.answers === 'rows' ? prepared.raw() : s.answers === 'values' ? prepared.pluck() : prepared;
    }
  }

  private statement<R, P>(s: Statement<R, P>): Database.Statement<unknown[], unknown> {
    return this.prepared[s.index]!;
  }

  all<R, P>(s: Statement<R, P>, params: P): R[] {
    const found = this.statement(s).all(s.bind(params));
    if (s.answers !== 'rows') return found as R[];
    const rows = new Array<R>(found.length);
    for (let i = 0; i < found.length; i++) rows[i] = s.row(found[i] as unknown[]);
    return rows;
  }

  get<R, P>(s: Statement<R, P>, params: P): R | undefined {
    const found = this.statement(s).get(s.bind(params));
    if (found === undefined || s.answers !== 'rows') return found as R | undefined;
    return s.row(found as unknown[]);
  }

  run<P>(s: Statement<unknown, P>, params: P): number {
    return this.statement(s).run(s.bind(params)).changes;
  }

  insert<P>(s: Statement<unknown, P>, params: P): number {
    return Number(this.statement(s).run(s.bind(params)).lastInsertRowid);
  }
}
