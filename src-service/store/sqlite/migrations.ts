/**
 * The schema, as an ordered list of migrations. `PRAGMA user_version` records how many have run; each
 * runs in its own transaction, so a data file is always at one known version. Append new migrations at
 * the end and never edit one that has shipped.
 *
 * Money is stored as integers in the currency's minor units (`*_minor`). An account's balance is kept in
 * `accounts.balance_minor` by triggers on `transactions`, so that it equals the exact sum of its
 * transactions whatever path writes them (the operations, the admin commands, the demo data).
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'users, client applications, accounts, permissions, categories, transactions, templates, refuelings',
    sql: `
      CREATE TABLE client_apps (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        -- SHA-256 of the key: the file never holds a usable key.
        key_hash TEXT NOT NULL UNIQUE,
        label TEXT NOT NULL DEFAULT '',
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at TEXT NOT NULL
      );

      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        login TEXT NOT NULL,
        -- The login case-folded: logins are matched without regard to case.
        login_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        -- The user's own currency (ISO 4217 numeric): a refueling in it has Rate 1.
        currency INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id INTEGER NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        currency INTEGER NOT NULL,
        type INTEGER NOT NULL,
        is_active INTEGER NOT NULL CHECK (is_active IN (0, 1)),
        is_hidden INTEGER NOT NULL CHECK (is_hidden IN (0, 1)),
        locked INTEGER NOT NULL CHECK (locked IN (0, 1)),
        ord INTEGER NOT NULL,
        -- The last guard of the balance limit the operations check first (15 digits: exact as a double).
        balance_minor INTEGER NOT NULL DEFAULT 0 CHECK (abs(balance_minor) <= 999999999999999),
        created_at TEXT NOT NULL
      );

      CREATE TABLE account_permissions (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        user_id INTEGER NOT NULL REFERENCES users(id),
        permission INTEGER NOT NULL CHECK (permission IN (1, 2, 3)),
        PRIMARY KEY (account_id, user_id)
      ) WITHOUT ROWID;
      CREATE INDEX account_permissions_by_user ON account_permissions(user_id, account_id);

      CREATE TABLE categories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id),
        parent_id INTEGER REFERENCES categories(id),
        name TEXT NOT NULL,
        -- The name case-folded: siblings are unique without regard to case.
        name_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX categories_unique_sibling ON categories(user_id, IFNULL(parent_id, 0), name_key);

      CREATE TABLE transactions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        -- Id_User: the owner of the account when it was booked; Id_UserCreated: who booked it.
        user_id INTEGER NOT NULL REFERENCES users(id),
        created_by INTEGER NOT NULL REFERENCES users(id),
        payment_date TEXT NOT NULL,
        type INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
        amount_minor INTEGER NOT NULL,
        description TEXT NOT NULL,
        category_id INTEGER REFERENCES categories(id),
        -- Both halves of a transfer carry the id of its first half; a transfer counts once as a booking.
        transfer_id INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX transactions_by_account_date ON transactions(account_id, payment_date DESC, id DESC);
      CREATE INDEX transactions_by_category_date ON transactions(category_id, payment_date);

      CREATE TRIGGER transactions_balance_after_insert AFTER INSERT ON transactions BEGIN
        UPDATE accounts SET balance_minor = balance_minor + NEW.amount_minor WHERE id = NEW.account_id;
      END;
      CREATE TRIGGER transactions_balance_after_delete AFTER DELETE ON transactions BEGIN
        UPDATE accounts SET balance_minor = balance_minor - OLD.amount_minor WHERE id = OLD.account_id;
      END;
      CREATE TRIGGER transactions_balance_after_update AFTER UPDATE OF amount_minor, account_id ON transactions BEGIN
        UPDATE accounts SET balance_minor = balance_minor - OLD.amount_minor WHERE id = OLD.account_id;
        UPDATE accounts SET balance_minor = balance_minor + NEW.amount_minor WHERE id = NEW.account_id;
      END;

      CREATE TABLE templates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id),
        created_by INTEGER NOT NULL REFERENCES users(id),
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        type INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
        amount_minor INTEGER NOT NULL,
        description TEXT NOT NULL,
        category_id INTEGER REFERENCES categories(id),
        ord INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX templates_by_user ON templates(user_id, ord, id);

      CREATE TABLE refuelings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        -- A car is a positive number chosen by its owner; the pair (user_id, car_id) names it.
        user_id INTEGER NOT NULL REFERENCES users(id),
        car_id INTEGER NOT NULL CHECK (car_id > 0),
        created_by INTEGER NOT NULL REFERENCES users(id),
        date_of_purchase TEXT NOT NULL,
        tachometer INTEGER NOT NULL CHECK (tachometer >= 0),
        -- Litres and the exchange rate are measurements, not money: kept as the exact double sent.
        liter REAL NOT NULL CHECK (liter > 0),
        price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
        description TEXT NOT NULL,
        currency INTEGER NOT NULL,
        rate REAL NOT NULL CHECK (rate > 0),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX refuelings_by_car_date ON refuelings(user_id, car_id, date_of_purchase DESC, id DESC);
    `,
  },
];
