/**
 * The PostgreSQL store as the admin commands use it: one connection, the schema brought up to date, and
 * each operator function in a transaction of its own (one at a time). Their commits are announced to
 * the running instances by the tables' triggers (see migrations.ts).
 */
import type pg from 'pg';
import { StoreData } from '../data';
import { runFlow } from '../flow';
import type { StoreFlow } from '../seam';
import { connect, transaction } from './connect';
import { PgConnection } from './connection';
import { migratePostgres } from './migrations';

export class PostgresAdminStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<PostgresAdminStore> {
    const client = await connect(url, { applicationName: 'bookkeeping-admin' });
    try {
      await migratePostgres(client);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    return new PostgresAdminStore(client);
  }

  /** The connection, for SQL of the admin's own (the copy from SQLite, checks). */
  get connection(): pg.Client {
    return this.client;
  }

  write<T>(flow: StoreFlow<T>): Promise<T> {
    const run = this.queue.then(() => transaction(this.client, () => runFlow(flow(new StoreData(new PgConnection(this.client))))));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.client.end();
  }
}
