/**
 * The store seam on one PostgreSQL connection: every area's statements, named so that each connection
 * prepares them once. Used inside a read (statements on committed data, with the instance's kept rows)
 * or inside a write transaction (without: a row written there may still be rolled back).
 */
import type { KeptTransactions } from '../kept-rows';
import {
  LAST_N,
  LAST_REFUELINGS,
  PERMISSION,
  categoryNameKey,
  clientKeyHash,
  loginKey,
  transactionRow,
  type AccountFields,
  type AccountRow,
  type CategoryRow,
  type EditableAccountFields,
  type NewTemplate,
  type NewTransaction,
  type Permission,
  type RefuelingFields,
  type RefuelingRow,
  type TemplateRow,
  type TransactionRow,
  type UserRow,
} from '../rows';
import type {
  AccountAccess,
  CategoryAccess,
  CredentialAccess,
  DataAccess,
  RefuelingAccess,
  TemplateAccess,
  TransactionAccess,
  UserAccess,
} from '../seam';
import type { Queryable } from './connect';

/** Runs a named (prepared once per connection) statement and returns its rows. */
async function rows<R>(db: Queryable, name: string, text: string, values: unknown[]): Promise<R[]> {
  return (await db.query<R & object>({ name, text, values })).rows;
}

async function first<R>(db: Queryable, name: string, text: string, values: unknown[]): Promise<R | undefined> {
  return (await rows<R>(db, name, text, values))[0];
}

const now = () => new Date().toISOString();

export class PgUsers implements UserAccess, CredentialAccess {
  constructor(private readonly db: Queryable) {}

  byLogin(login: string): Promise<UserRow | undefined> {
    return first(this.db, 'users.byLogin', 'SELECT id, login, password_hash, currency FROM users WHERE login_key = $1', [loginKey(login)]);
  }

  async insert(login: string, passwordHash: string, currency: number): Promise<number> {
    const row = await first<{ id: number }>(
      this.db,
      'users.insert',
      'INSERT INTO users (login, login_key, password_hash, currency, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [login, loginKey(login), passwordHash, currency, now()],
    );
    return row!.id;
  }

  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db.query({ name: 'users.setHash', text: 'UPDATE users SET password_hash = $1 WHERE id = $2', values: [passwordHash, userId] });
  }

  async isClientEnabled(key: string): Promise<boolean> {
    return (await this.client(key))?.enabled === true;
  }

  async clientExists(key: string): Promise<boolean> {
    return (await this.client(key)) !== undefined;
  }

  private client(key: string): Promise<{ enabled: boolean } | undefined> {
    return first(this.db, 'clients.get', 'SELECT enabled FROM client_apps WHERE key_hash = $1', [clientKeyHash(key)]);
  }

  async insertClient(key: string, label: string): Promise<void> {
    await this.db.query({
      name: 'clients.insert',
      text: 'INSERT INTO client_apps (key_hash, label, enabled, created_at) VALUES ($1, $2, true, $3)',
      values: [clientKeyHash(key), label, now()],
    });
  }

  async setClientEnabled(key: string, enabled: boolean): Promise<boolean> {
    const result = await this.db.query({
      name: 'clients.setEnabled',
      text: 'UPDATE client_apps SET enabled = $1 WHERE key_hash = $2',
      values: [enabled, clientKeyHash(key)],
    });
    return (result.rowCount ?? 0) > 0;
  }
}

/** Booleans as 0/1, as the rows of both stores have them. */
const ACCOUNT_COLUMNS = `a.id, a.owner_id, a.name, a.description, a.currency, a.type, a.is_active::int AS is_active,
  a.is_hidden::int AS is_hidden, a.locked::int AS locked, a.ord, a.balance_minor, p.permission`;

export class PgAccounts implements AccountAccess {
  constructor(private readonly db: Queryable) {}

  listFor(userId: number): Promise<AccountRow[]> {
    return rows(
      this.db,
      'accounts.listFor',
      `SELECT ${ACCOUNT_COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
       WHERE p.user_id = $1 ORDER BY a.ord, a.id`,
      [userId],
    );
  }

  getFor(accountId: number, userId: number): Promise<AccountRow | undefined> {
    return first(
      this.db,
      'accounts.getFor',
      `SELECT ${ACCOUNT_COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
       WHERE p.account_id = $1 AND p.user_id = $2`,
      [accountId, userId],
    );
  }

  async ownerOf(accountId: number): Promise<number | undefined> {
    return (await first<{ owner_id: number }>(this.db, 'accounts.owner', 'SELECT owner_id FROM accounts WHERE id = $1', [accountId]))?.owner_id;
  }

  async insert(ownerId: number, f: AccountFields): Promise<number> {
    // The account and its owner's permission in one statement.
    const row = await first<{ id: number }>(
      this.db,
      'accounts.insert',
      `WITH account AS (
         INSERT INTO accounts (owner_id, name, description, currency, type, is_active, is_hidden, locked, ord, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
       ), owner AS (
         INSERT INTO account_permissions (account_id, user_id, permission) SELECT id, $1, ${PERMISSION.owner} FROM account
       )
       SELECT id FROM account`,
      [ownerId, f.Name, f.Description, f.Currency, f.Type, f.IsActive, f.IsHidden, f.Locked, f.Ord, now()],
    );
    return row!.id;
  }

  async update(accountId: number, f: EditableAccountFields): Promise<void> {
    await this.db.query({
      name: 'accounts.update',
      text: `UPDATE accounts SET name = $2, description = $3, type = $4, is_active = $5, is_hidden = $6, locked = $7, ord = $8
             WHERE id = $1`,
      values: [accountId, f.Name, f.Description, f.Type, f.IsActive, f.IsHidden, f.Locked, f.Ord],
    });
  }

  async grant(accountId: number, userId: number, permission: Permission): Promise<void> {
    await this.db.query({
      name: 'accounts.grant',
      text: `INSERT INTO account_permissions (account_id, user_id, permission) VALUES ($1, $2, $3)
             ON CONFLICT (account_id, user_id) DO UPDATE SET permission = excluded.permission`,
      values: [accountId, userId, permission],
    });
  }

  /**
   * The lock an UPDATE of the balance takes (FOR NO KEY UPDATE: inserts that only reference the account
   * still pass), taken before anything is read and always in the order of the ids.
   */
  async holdForBooking(accountIds: readonly number[]): Promise<void> {
    await this.db.query({
      name: 'accounts.hold',
      text: 'SELECT id FROM accounts WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE',
      values: [[...accountIds]],
    });
  }
}

const TRANSACTION_COLUMNS = 'id, account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id';

export class PgTransactions implements TransactionAccess {
  /** `kept` only inside a read: a row written in a write transaction may still be rolled back. */
  constructor(
    private readonly db: Queryable,
    private readonly kept?: KeptTransactions,
  ) {}

  async last(accountId: number, limit = LAST_N): Promise<readonly TransactionRow[]> {
    const kept = this.kept;
    if (!kept) return this.read(accountId, limit);
    const epoch = kept.epoch;
    // The order from the index; the rows from the keep, those it lacks read in one statement.
    const ids = (
      await rows<{ id: number }>(
        this.db,
        'transactions.lastIds',
        'SELECT id FROM transactions WHERE account_id = $1 ORDER BY payment_date DESC, id DESC LIMIT $2',
        [accountId, limit],
      )
    ).map((r) => r.id);
    const found = kept.lookup(accountId, ids);
    if ('list' in found) return found.list;
    const read = await rows<TransactionRow>(
      this.db,
      'transactions.byIds',
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ANY($1::bigint[])`,
      [found.missing],
    );
    // Forgotten meanwhile (rows changed behind the service's back): answered, not kept.
    if (kept.epoch !== epoch) return this.read(accountId, limit);
    const byId = new Map(kept.add(read).map((r) => [r.id, r]));
    const list: TransactionRow[] = [];
    for (const [i, id] of ids.entries()) {
      const row = found.rows[i] ?? byId.get(id);
      if (row === undefined) return this.read(accountId, limit);
      list.push(row);
    }
    return kept.keepList(accountId, list);
  }

  private read(accountId: number, limit: number): Promise<TransactionRow[]> {
    return rows(
      this.db,
      'transactions.last',
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE account_id = $1 ORDER BY payment_date DESC, id DESC LIMIT $2`,
      [accountId, limit],
    );
  }

  async insert(t: NewTransaction): Promise<TransactionRow> {
    const row = await first<{ id: number }>(
      this.db,
      'transactions.insert',
      `INSERT INTO transactions (account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [t.accountId, t.userId, t.createdBy, t.paymentDate, t.type, t.amountMinor, t.description, t.categoryId, now()],
    );
    return transactionRow(row!.id, t);
  }

  async insertTransfer(a: NewTransaction, b: NewTransaction): Promise<[TransactionRow, TransactionRow]> {
    // Both halves in one statement, each with the first half's id as the transfer's: the ids are
    // drawn first, the smaller for the first half.
    const [ids] = await rows<{ first: number; second: number }>(
      this.db,
      'transactions.insertTransfer',
      `WITH drawn AS (
         SELECT nextval(pg_get_serial_sequence('transactions', 'id')) AS x, nextval(pg_get_serial_sequence('transactions', 'id')) AS y
       ), ids AS (SELECT least(x, y) AS first, greatest(x, y) AS second FROM drawn),
       inserted AS (
         INSERT INTO transactions (id, account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id, transfer_id, created_at)
         SELECT first, $1::bigint, $2::bigint, $3::bigint, $4::text, $5::integer, $6::bigint, $7::text, $8::bigint, first, $17::text FROM ids
         UNION ALL
         SELECT second, $9::bigint, $10::bigint, $11::bigint, $12::text, $13::integer, $14::bigint, $15::text, $16::bigint, first, $17::text FROM ids
       )
       SELECT first, second FROM ids`,
      [
        a.accountId, a.userId, a.createdBy, a.paymentDate, a.type, a.amountMinor, a.description, a.categoryId,
        b.accountId, b.userId, b.createdBy, b.paymentDate, b.type, b.amountMinor, b.description, b.categoryId,
        now(),
      ],
    );
    return [transactionRow(ids!.first, a), transactionRow(ids!.second, b)];
  }
}

export class PgTemplates implements TemplateAccess {
  constructor(private readonly db: Queryable) {}

  listFor(userId: number): Promise<TemplateRow[]> {
    return rows(
      this.db,
      'templates.listFor',
      `SELECT t.id, t.user_id, t.created_by, t.account_id, a.currency, t.type, t.amount_minor, t.description, t.category_id, t.ord
       FROM templates t JOIN accounts a ON a.id = t.account_id
       WHERE t.user_id = $1 ORDER BY t.ord, t.id`,
      [userId],
    );
  }

  async insert(t: NewTemplate): Promise<number> {
    const row = await first<{ id: number }>(
      this.db,
      'templates.insert',
      `INSERT INTO templates (user_id, created_by, account_id, type, amount_minor, description, category_id, ord, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [t.userId, t.createdBy, t.accountId, t.type, t.amountMinor, t.description, t.categoryId, t.ord, now()],
    );
    return row!.id;
  }
}

export class PgCategories implements CategoryAccess {
  constructor(private readonly db: Queryable) {}

  listFor(userId: number): Promise<CategoryRow[]> {
    return rows(this.db, 'categories.listFor', 'SELECT id, parent_id, name FROM categories WHERE user_id = $1 ORDER BY id', [userId]);
  }

  getFor(categoryId: number, userId: number): Promise<CategoryRow | undefined> {
    return first(this.db, 'categories.getFor', 'SELECT id, parent_id, name FROM categories WHERE id = $1 AND user_id = $2', [categoryId, userId]);
  }

  async depth(categoryId: number): Promise<number> {
    const row = await first<{ depth: number | null }>(
      this.db,
      'categories.depth',
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM categories WHERE id = $1
         UNION ALL SELECT c.id, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
       ) SELECT max(depth) AS depth FROM up`,
      [categoryId],
    );
    return row?.depth ?? 0;
  }

  async siblingNamed(userId: number, parentId: number | null, name: string, exceptId = 0): Promise<boolean> {
    const row = await first(
      this.db,
      'categories.sibling',
      'SELECT id FROM categories WHERE user_id = $1 AND COALESCE(parent_id, 0) = $2 AND name_key = $3 AND id <> $4',
      [userId, parentId ?? 0, categoryNameKey(name), exceptId],
    );
    return row !== undefined;
  }

  async insert(userId: number, parentId: number | null, name: string): Promise<number> {
    const row = await first<{ id: number }>(
      this.db,
      'categories.insert',
      'INSERT INTO categories (user_id, parent_id, name, name_key, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [userId, parentId, name, categoryNameKey(name), now()],
    );
    return row!.id;
  }

  async rename(categoryId: number, name: string): Promise<void> {
    await this.db.query({
      name: 'categories.rename',
      text: 'UPDATE categories SET name = $1, name_key = $2 WHERE id = $3',
      values: [name, categoryNameKey(name), categoryId],
    });
  }

  favorites(userId: number, from: string, to: string, limit: number): Promise<CategoryRow[]> {
    // A transfer is one booking though it writes two transactions.
    return rows(
      this.db,
      'categories.favorites',
      `SELECT c.id, c.parent_id, c.name, COUNT(DISTINCT COALESCE(t.transfer_id, t.id)) AS uses
       FROM categories c JOIN transactions t ON t.category_id = c.id
       WHERE c.user_id = $1 AND t.payment_date >= $2 AND t.payment_date <= $3
       GROUP BY c.id ORDER BY uses DESC, c.id LIMIT $4`,
      [userId, from, to, limit],
    );
  }
}

const REFUELING_COLUMNS = 'id, user_id, car_id, created_by, date_of_purchase, tachometer, liter, price_minor, description, currency, rate';

export class PgRefuelings implements RefuelingAccess {
  constructor(private readonly db: Queryable) {}

  last(userId: number, carId: number, limit = LAST_REFUELINGS): Promise<RefuelingRow[]> {
    return rows(
      this.db,
      'refuelings.last',
      `SELECT ${REFUELING_COLUMNS} FROM refuelings WHERE user_id = $1 AND car_id = $2
       ORDER BY date_of_purchase DESC, id DESC LIMIT $3`,
      [userId, carId, limit],
    );
  }

  getFor(id: number, userId: number): Promise<RefuelingRow | undefined> {
    return first(this.db, 'refuelings.getFor', `SELECT ${REFUELING_COLUMNS} FROM refuelings WHERE id = $1 AND user_id = $2`, [id, userId]);
  }

  async insert(userId: number, createdBy: number, f: RefuelingFields): Promise<number> {
    const at = now();
    const row = await first<{ id: number }>(
      this.db,
      'refuelings.insert',
      `INSERT INTO refuelings (user_id, car_id, created_by, date_of_purchase, tachometer, liter, price_minor, description,
                               currency, rate, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id`,
      [userId, f.carId, createdBy, f.dateOfPurchase, f.tachometer, f.liter, f.priceMinor, f.description, f.currency, f.rate, at],
    );
    return row!.id;
  }

  async update(id: number, f: RefuelingFields): Promise<void> {
    await this.db.query({
      name: 'refuelings.update',
      text: `UPDATE refuelings SET car_id = $2, date_of_purchase = $3, tachometer = $4, liter = $5, price_minor = $6,
                                   description = $7, currency = $8, rate = $9, updated_at = $10
             WHERE id = $1`,
      values: [id, f.carId, f.dateOfPurchase, f.tachometer, f.liter, f.priceMinor, f.description, f.currency, f.rate, now()],
    });
  }
}

/** Every area on one connection. */
export class PgData implements DataAccess {
  readonly users: PgUsers;
  readonly accounts: PgAccounts;
  readonly transactions: PgTransactions;
  readonly templates: PgTemplates;
  readonly categories: PgCategories;
  readonly refuelings: PgRefuelings;

  constructor(db: Queryable, kept?: KeptTransactions) {
    this.users = new PgUsers(db);
    this.accounts = new PgAccounts(db);
    this.transactions = new PgTransactions(db, kept);
    this.templates = new PgTemplates(db);
    this.categories = new PgCategories(db);
    this.refuelings = new PgRefuelings(db);
  }
}
