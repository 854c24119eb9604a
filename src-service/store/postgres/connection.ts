/**
 * The statements (statements.ts) on a PostgreSQL connection or pool, each under its name (prepared once
 * per connection by node-postgres), rows read as arrays and made into the statement's rows by its
 * selection, as on SQLite.
 */
import type pg from 'pg';
import { POSTGRES } from '../dialect';
import type { Statement } from '../sql';
import { statementsFor, type StoreConnection } from '../statements';

/** Where the statements go: a connection, the pool, or a write's pipelined transaction (pipelined.ts). */
export interface StatementRunner {
  query(config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult>;
}

export class PgConnection implements StoreConnection {
  readonly statements = statementsFor(POSTGRES);

  constructor(private readonly db: StatementRunner) {}

  private query<R, P>(s: Statement<R, P>, params: P) {
    return this.db.query({ name: s.name, text: s.text, values: s.bind(params) as unknown[], rowMode: 'array' });
  }

  async all<R, P>(s: Statement<R, P>, params: P): Promise<R[]> {
    return (await this.query(s, params)).rows.map((tuple) => s.row(tuple));
  }

  async get<R, P>(s: Statement<R, P>, params: P): Promise<R | undefined> {
    const [tuple] = (await this.query(s, params)).rows;
    return tuple === undefined ? undefined : s.row(tuple);
  }

  async run<P>(s: Statement<unknown, P>, params: P): Promise<number> {
    return (await this.query(s, params)).rowCount ?? 0;
  }

  async insert<P>(s: Statement<unknown, P>, params: P): Promise<number> {
    return (await this.query(s, params)).rows[0]![0] as number;
  }
}
