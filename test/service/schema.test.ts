/**
 * The tables written once (src-service/store/schema.ts) are the tables both stores' migrations make,
 * column for column (name, order, type, null or not), and every statement made from them for each
 * database (statements.ts) is one that database accepts on that schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-service/store';
import { POSTGRES, SQLITE, type Dialect } from '../../src-service/store/dialect';
import { connect } from '../../src-service/store/postgres/connect';
import { migratePostgres } from '../../src-service/store/postgres/migrations';
import { TABLE_NAMES, columnsOf } from '../../src-service/store/schema';
import { everyStatement, statementsFor } from '../../src-service/store/statements';
import { freshDatabase, needPostgres } from '../support/backends';

interface ColumnFound {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
}

/** What schema.ts says, in a dialect's type names. */
function expected(d: Dialect): ColumnFound[] {
  return TABLE_NAMES.flatMap((table) =>
    columnsOf(table).map(([name, c]) => ({ table, name, type: d.types[c.type], nullable: c.nullable === true })),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the tables of schema.ts', () => {
  it('are the tables SQLite migrations make, and SQLite prepares every statement made from them', () => {
    const db = openDatabase(join(dir, 'schema.sqlite'));
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
      expect((tables as string[]).sort()).toEqual([...TABLE_NAMES].sort());
      const found = TABLE_NAMES.flatMap((table) =>
        (db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[]).map((c) => ({
          table,
          name: c.name,
          type: c.type,
          // SQLite reports an INTEGER PRIMARY KEY (the rowid) as nullable; it never is.
          nullable: c.notnull === 0 && c.pk === 0,
        })),
      );
      expect(found).toEqual(expected(SQLITE));
      for (const s of everyStatement(statementsFor(SQLITE))) expect(() => db.prepare(s.text), s.name).not.toThrow();
    } finally {
      db.close();
    }
  });

  const found = needPostgres(import.meta.url);
  const postgresTitle = 'are the tables PostgreSQL migrations make (beside its own), and it prepares every statement made from them';
  it.skipIf(!found)(postgresTitle, async () => {
    const client: pg.Client = await connect(await freshDatabase());
    try {
      await migratePostgres(client);
      const { rows } = await client.query<{ table: string; name: string; type: string; nullable: string }>(
        `SELECT table_name AS table, column_name AS name, data_type AS type, is_nullable AS nullable
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ANY($1) ORDER BY table_name, ordinal_position`,
        [TABLE_NAMES],
      );
      const columns = rows.map((r) => ({ ...r, nullable: r.nullable === 'YES' }));
      const byTable = (list: ColumnFound[]) => TABLE_NAMES.flatMap((t) => list.filter((c) => c.table === t));
      expect(byTable(columns)).toEqual(expected(POSTGRES));
      // PostgreSQL's own: the change counts (the stamps of kept answers), the shared login throttle and the record of migrations.
      const others = await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND NOT (table_name = ANY($1)) ORDER BY 1",
        [TABLE_NAMES],
      );
      expect(others.rows.map((r) => r.name)).toEqual(['account_changes', 'login_attempts', 'schema_migrations', 'user_changes']);
      // PREPARE parses and plans a statement without running it: its tables, columns and types must all be there.
      for (const [i, s] of everyStatement(statementsFor(POSTGRES)).entries()) {
        await expect(client.query(`PREPARE check_${i} AS ${s.text}`), s.name).resolves.toBeDefined();
      }
    } finally {
      await client.end();
    }
  });
});
