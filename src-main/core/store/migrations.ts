/**
 * Versioned schema of the local copy. Each migration runs once, in its own transaction, and records
 * its version in `PRAGMA user_version`; a file written by a newer app version is refused rather than
 * guessed at.
 *
 * Amounts and other decimals are canonical decimal TEXT ("1520.5"), never summed with SQL's floating
 * point: a transaction's amount is kept beside it as whole ten-thousandths (amount_units, see
 * amount-units.ts) for exact SUMs in SQL, else summed with BigInt decimals in code. dateTimes are the
 * codec's wall-clock text, which sorts as text.
 */
import type Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/app-api/errors';
import { AMOUNT_UNITS, registerAmountFunctions } from './amount-units';
import { fillMonthSums, fillMonthTotals, MONTH_SUMS_SCHEMA, MONTH_TOTALS_SCHEMA } from './month-totals';

export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'server copy, cars, settings, outbox',
    up(db) {
      db.exec(`
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;

        -- Accounts as the service last listed them. listed = 0: the service no longer lists the account;
        -- it is kept (with its history) but not shown, in case a glitch of the service hid it.
        CREATE TABLE accounts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          description TEXT NOT NULL,
          type INTEGER NOT NULL,
          currency INTEGER NOT NULL,
          is_active INTEGER NOT NULL,
          locked INTEGER NOT NULL,
          is_hidden INTEGER NOT NULL,
          ord INTEGER NOT NULL,
          permission INTEGER NOT NULL,
          balance TEXT NOT NULL,
          listed INTEGER NOT NULL DEFAULT 1,
          position INTEGER NOT NULL DEFAULT 0
        ) STRICT;

        -- Every transaction the service ever listed or returned: the history grows beyond its last 50.
        -- key: 'id:<Id>', or a content key for a service that only offers the list without ids.
        CREATE TABLE transactions (
          key TEXT PRIMARY KEY,
          id INTEGER,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          payment_date TEXT NOT NULL,
          type INTEGER NOT NULL,
          amount TEXT NOT NULL,
          description TEXT NOT NULL,
          category_id INTEGER NOT NULL,
          user_id INTEGER NOT NULL,
          user_created_id INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX transactions_by_account ON transactions (account_id, payment_date DESC, id DESC);

        CREATE TABLE templates (
          id INTEGER PRIMARY KEY,
          account_id INTEGER NOT NULL,
          type INTEGER NOT NULL,
          amount TEXT NOT NULL,
          description TEXT NOT NULL,
          category_id INTEGER NOT NULL,
          ord INTEGER NOT NULL,
          user_id INTEGER NOT NULL,
          user_created_id INTEGER NOT NULL,
          position INTEGER NOT NULL
        ) STRICT;

        -- The category forest: parent_id 0 is top level; position keeps the service's order of siblings.
        CREATE TABLE categories (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          parent_id INTEGER NOT NULL,
          position INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX categories_by_parent ON categories (parent_id, position);

        -- FavoritCategories, flat, in the service's ranking.
        CREATE TABLE category_favorites (
          rank INTEGER PRIMARY KEY,
          category_id INTEGER NOT NULL,
          name TEXT NOT NULL
        ) STRICT;

        -- The service has no car list: a car is a CarId the user named here.
        CREATE TABLE cars (
          car_id INTEGER PRIMARY KEY CHECK (car_id > 0),
          name TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE refuelings (
          id INTEGER PRIMARY KEY,
          car_id INTEGER NOT NULL,
          date_of_purchase TEXT NOT NULL,
          tachometer INTEGER NOT NULL,
          liter TEXT NOT NULL,
          price TEXT NOT NULL,
          currency INTEGER NOT NULL,
          rate TEXT NOT NULL,
          description TEXT NOT NULL,
          user_created_id INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX refuelings_by_car ON refuelings (car_id, date_of_purchase DESC, id DESC);

        -- Writes made in the app, in order, until the service has them. input holds the write as the
        -- user made it (temporary ids replaced once their create succeeded); base, for edits, the record
        -- as it was when the edit began; probe, what existed on the service just before it was sent,
        -- so that an unknown outcome can be decided by looking for the write's effect.
        CREATE TABLE outbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          input TEXT NOT NULL,
          base TEXT,
          created_ids TEXT NOT NULL DEFAULT '[]',
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'unknown', 'refused', 'conflict')),
          message TEXT,
          conflicts TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          sent_at TEXT,
          probe TEXT
        ) STRICT;

        -- Temporary ids of records created offline and the service's ids that replaced them.
        CREATE TABLE id_map (
          temp_id INTEGER PRIMARY KEY CHECK (temp_id < 0),
          kind TEXT NOT NULL,
          real_id INTEGER NOT NULL
        ) STRICT;

        -- Records this app created on the service: an unknown outcome is never matched to one of them.
        CREATE TABLE own_records (
          kind TEXT NOT NULL,
          id INTEGER NOT NULL,
          PRIMARY KEY (kind, id)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    description: 'partial fills, a local mark on refuelings',
    up(db) {
      db.exec(`
        -- Refuelings the user marked as a partial fill (the tank not filled up). The service has no such
        -- field: the mark lives here only, keyed by the refueling's id (a temporary one until its create
        -- succeeds, then moved to the service's id).
        CREATE TABLE refueling_marks (
          refueling_id INTEGER PRIMARY KEY,
          partial INTEGER NOT NULL CHECK (partial IN (0, 1))
        ) STRICT;
      `);
    },
  },
  {
    version: 3,
    description: 'a register and reports in SQL: exact integer amounts, months, keyset and aggregate indexes, folded full-text search',
    up(db) {
      // Filled here by the same code the store writes them with (amount-units.ts); SQLite has no exact decimal parse.
      registerAmountFunctions(db);
      db.exec(`
        -- The table again with the columns SQL needs beside each transaction (a rebuild: SQLite cannot add
        -- a column with a constraint on the others).
        CREATE TABLE transactions_v3 (
          key TEXT PRIMARY KEY,
          id INTEGER,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          payment_date TEXT NOT NULL,
          type INTEGER NOT NULL,
          amount TEXT NOT NULL,
          description TEXT NOT NULL,
          category_id INTEGER NOT NULL,
          user_id INTEGER NOT NULL,
          user_created_id INTEGER NOT NULL,
          -- The amount in ten-thousandths when that is exact, else NULL (summed from the text in code).
          amount_units INTEGER,
          -- The payment date's YYYY-MM: what reports group by. A real column (a generated one would not
          -- let its indexes cover the reports), held to the date by its CHECK.
          month TEXT NOT NULL CHECK (month = substr(payment_date, 1, 7)),
          -- When this copy first stored the row or last saw it change (UTC, ISO 8601); NULL for rows stored before.
          changed_at TEXT
        ) STRICT;
        INSERT INTO transactions_v3
          SELECT key, id, account_id, payment_date, type, amount, description, category_id, user_id, user_created_id,
                 ${AMOUNT_UNITS}(amount), substr(payment_date, 1, 7), NULL
          FROM transactions;
        DROP TABLE transactions;
        ALTER TABLE transactions_v3 RENAME TO transactions;

        -- An account's register newest first (payment date, then id, NULL ids last, then key), read by
        -- keyset; the other columns make it cover running balances and short reports.
        CREATE INDEX transactions_register ON transactions (account_id, payment_date, id, key, amount_units, type, category_id);
        -- The register across accounts and the search's order, covering their filters and sums.
        CREATE INDEX transactions_by_date ON transactions (payment_date, id, key, account_id, amount_units, type, category_id);
        -- The rare rows whose amount is summed in code.
        CREATE INDEX transactions_odd_amounts ON transactions (account_id) WHERE amount_units IS NULL;

        -- Search text folded for case and diacritics ("benzin" finds "Benzín"), any part of a word
        -- (trigrams), of the description and of the amount's text. Kept in step by triggers, so that every
        -- write (a pull, a sync's answer, a restore, clearing the copy) updates it in its own transaction.
        CREATE VIRTUAL TABLE transactions_text USING fts5(
          description, amount, content = '', contentless_delete = 1,
          tokenize = 'trigram case_sensitive 0 remove_diacritics 1'
        );
        INSERT INTO transactions_text (rowid, description, amount) SELECT rowid, description, amount FROM transactions;
        CREATE TRIGGER transactions_text_insert AFTER INSERT ON transactions BEGIN
          INSERT INTO transactions_text (rowid, description, amount) VALUES (new.rowid, new.description, new.amount);
        END;
        CREATE TRIGGER transactions_text_delete AFTER DELETE ON transactions BEGIN
          DELETE FROM transactions_text WHERE rowid = old.rowid;
        END;
        CREATE TRIGGER transactions_text_update AFTER UPDATE OF description, amount ON transactions BEGIN
          DELETE FROM transactions_text WHERE rowid = old.rowid;
          INSERT INTO transactions_text (rowid, description, amount) VALUES (new.rowid, new.description, new.amount);
        END;
      `);
      // Totals per month, category, type and account for reports over years (month-totals.ts).
      db.exec(MONTH_TOTALS_SCHEMA);
      fillMonthTotals(db);
    },
  },
  {
    version: 4,
    description: 'an outbox status of its own for writes whose arrival cannot be told',
    up(db) {
      // Outbox ids are never handed out twice: the rebuilt table keeps the old one's high-water mark.
      const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").pluck().get() as number | undefined;
      db.exec(`
        -- The table again with 'undecidable' among the statuses (SQLite cannot change a CHECK in place).
        -- Until now such a write was 'unknown' with a message, or with a probe that said so (a create an older
        -- copy brought back without what the service held before it): both become 'undecidable', the probe's
        -- words their message. The sync still looks for their effect; only the user's word sends them again.
        CREATE TABLE outbox_v4 (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,
          input TEXT NOT NULL,
          base TEXT,
          created_ids TEXT NOT NULL DEFAULT '[]',
          status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'unknown', 'undecidable', 'refused', 'conflict')),
          message TEXT,
          conflicts TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          sent_at TEXT,
          probe TEXT
        ) STRICT;
        INSERT INTO outbox_v4 (id, kind, input, base, created_ids, status, message, conflicts, attempts, created_at, sent_at, probe)
          SELECT id, kind, input, base, created_ids,
                 CASE WHEN status = 'unknown' AND (message IS NOT NULL OR json_type(probe, '$.undecidable') = 'text')
                      THEN 'undecidable' ELSE status END,
                 CASE WHEN json_type(probe, '$.undecidable') = 'text' THEN json_extract(probe, '$.undecidable') ELSE message END,
                 conflicts, attempts, created_at, sent_at,
                 CASE WHEN json_type(probe, '$.undecidable') = 'text' THEN 'null' ELSE probe END
          FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_v4 RENAME TO outbox;
      `);
      if (seq !== undefined) {
        const raised = db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'outbox'").run(seq);
        if (raised.changes === 0) db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('outbox', ?)").run(seq);
      }
    },
  },
  {
    version: 5,
    description: 'totals per account and month, and per month, category and type across accounts',
    up(db) {
      // Reports, the register and search over years read these few thousand rows (month-totals.ts).
      db.exec(MONTH_SUMS_SCHEMA);
      fillMonthSums(db);
    },
  },
  {
    version: 6,
    description: 'budgets: an amount per month, category and currency, kept here only',
    up(db) {
      // Never sent to the service (it has no budgets); a backup, a restore and a safety copy carry the table
      // as they carry every other. The category is the service's id, or a temporary one until its create
      // succeeds (then moved with it); no foreign key, as a category may leave the tree and come back.
      db.exec(`
        CREATE TABLE budgets (
          month TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]'),
          category_id INTEGER NOT NULL,
          currency INTEGER NOT NULL,
          -- Canonical decimal text, at least zero.
          amount TEXT NOT NULL,
          PRIMARY KEY (currency, month, category_id)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 7,
    description: "a car's other costs and its reminders, kept on this computer only",
    up(db) {
      db.exec(`
        -- Costs of a car besides its refuelings (src-shared/records/car-cost.ts). The service has no such
        -- record: they are never queued or sent, and stay when the car leaves the list, as its refuelings do.
        -- Amounts and rates are canonical decimal TEXT, summed exactly in code.
        CREATE TABLE car_costs (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          car_id INTEGER NOT NULL,
          date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          kind TEXT NOT NULL CHECK (kind IN ('service', 'tyres', 'insurance', 'tolls', 'parking', 'repairs', 'other')),
          odometer INTEGER CHECK (odometer >= 0),
          amount TEXT NOT NULL,
          currency INTEGER NOT NULL,
          rate TEXT NOT NULL,
          note TEXT NOT NULL
        ) STRICT;
        CREATE INDEX car_costs_by_car ON car_costs (car_id, date);

        -- Reminders of a car (src-shared/records/reminder.ts), due by a date and/or an odometer reading.
        CREATE TABLE reminders (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          car_id INTEGER NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('inspection', 'oilChange', 'insurance', 'service', 'tyres', 'other')),
          title TEXT NOT NULL,
          due_date TEXT,
          due_odometer INTEGER,
          every_months INTEGER CHECK (every_months > 0),
          every_km INTEGER CHECK (every_km > 0),
          note TEXT NOT NULL,
          done INTEGER NOT NULL CHECK (done IN (0, 1)),
          last_done TEXT,
          CHECK (due_date IS NOT NULL OR due_odometer IS NOT NULL)
        ) STRICT;
        CREATE INDEX reminders_by_car ON reminders (car_id);
      `);
    },
  },
];

/** The local copy was written by a newer version of the app: this one cannot read it. */
export class StoreVersionError extends AppError<'localFileNewer'> {
  override name = 'StoreVersionError';
}

/** Brings the schema up to the newest version; returns the version it found. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const found = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (found > newest) {
    throw new StoreVersionError('localFileNewer', { version: found, newest });
  }
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= found) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${Math.trunc(m.version)}`);
    }).immediate();
  }
  return found;
}
