/**
 * Every statement of the store seam, written once: the columns from the tables (schema.ts), the rows
 * from their selections (rows.ts), and whatever SQLite and PostgreSQL say differently from the dialect
 * (dialect.ts). A statement some database cannot have (a row lock, a list of ids in one parameter, rows
 * of two tables in one INSERT) is null there, and the area using it (data.ts) does without. Each
 * database's statements are made once per process (`statementsFor`), so a query's text never changes from
 * one call to the next: SQLite prepares each once per connection, PostgreSQL once per connection under
 * its name.
 */
import type { Dialect } from './dialect';
import {
  ACCOUNT_FIELDS,
  EDITABLE_ACCOUNT_FIELDS,
  NEW_TEMPLATE,
  NEW_TRANSACTION,
  PERMISSION,
  REFUELING_FIELDS,
  ROWS,
  type AccountRow,
  type CategoryRow,
  type NewTransaction,
  type RefuelingRow,
  type TemplateRow,
  type TransactionRow,
  type UserRow,
} from './rows';
import { TABLES } from './schema';
import { StatementWriter, type SqlConnection, type Statement } from './sql';

function userStatements(w: StatementWriter) {
  return {
    byLogin: w.rows<UserRow, [loginKey: string]>('users.byLogin', ROWS.user, 'FROM users WHERE login_key = ?'),
    insert: w.insert('users.insert', 'users', ['login', 'login_key', 'password_hash', 'currency', 'created_at']),
    setHash: w.change<[hash: string, userId: number]>('users.setHash', 'UPDATE users SET password_hash = ? WHERE id = ?'),
    clientEnabled: w.values<number, [keyHash: string]>(
      'clients.enabled',
      `SELECT ${w.d.flag('enabled')} FROM client_apps WHERE key_hash = ?`,
    ),
    insertClient: w.insert('clients.insert', 'client_apps', ['key_hash', 'label', 'enabled', 'created_at']),
    setClientEnabled: w.change<[enabled: number, keyHash: string]>(
      'clients.setEnabled',
      'UPDATE client_apps SET enabled = ? WHERE key_hash = ?',
    ),
  };
}

function accountStatements(w: StatementWriter) {
  const from = 'FROM account_permissions p JOIN accounts a ON a.id = p.account_id';
  const aliases = { accounts: 'a', account_permissions: 'p' };
  const newAccount = ['owner_id', ...ACCOUNT_FIELDS, 'created_at'] as const;
  const insert = w.insert('accounts.insert', 'accounts', newAccount);
  const idList = w.d.inIdList('a.id');
  return {
    listFor: w.rows<AccountRow, [userId: number]>(
      'accounts.listFor',
      ROWS.account,
      `${from} WHERE p.user_id = ? ORDER BY a.ord, a.id`,
      aliases,
    ),
    getFor: w.rows<AccountRow, [accountId: number, userId: number]>(
      'accounts.getFor',
      ROWS.account,
      `${from} WHERE p.account_id = ? AND p.user_id = ?`,
      aliases,
    ),
    ownerOf: w.values<number, [accountId: number]>('accounts.owner', 'SELECT owner_id FROM accounts WHERE id = ?'),
    insert,
    /** The account and its owner's permission in one statement. */
    insertOwned: w.only(w.d.insertsInWith, () =>
      w.statement(
        'accounts.insertOwned',
        `WITH account AS (${w.insertText('accounts', newAccount)} RETURNING id),
         owner AS (INSERT INTO account_permissions (account_id, user_id, permission) SELECT id, ?, ${PERMISSION.owner} FROM account)
         SELECT id FROM account`,
        'none',
        insert.row,
        (row: Parameters<typeof insert.bind>[0]) => [...insert.bind(row), row.owner_id],
      ),
    ),
    update: w.update('accounts.update', 'accounts', EDITABLE_ACCOUNT_FIELDS),
    grant: w.change<[accountId: number, userId: number, permission: number]>(
      'accounts.grant',
      `INSERT INTO account_permissions (account_id, user_id, permission) VALUES (?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET permission = excluded.permission`,
    ),
    /**
     * Taken before anything is read, always in the order of the ids (see AccountAccess.holdForBooking); in
     * the same round trip, the rows of those the user holds a permission on, as getFor reads them.
     */
    hold: w.only(w.d.bookingLock !== null && idList !== null, () =>
      w.rows<AccountRow, [accountIds: number[], userId: number]>(
        'accounts.hold',
        ROWS.account,
        `${from} WHERE ${idList} AND p.user_id = ? ORDER BY a.id ${w.d.bookingLock} OF a`,
        aliases,
      ),
    ),
  };
}

const halfValues = (t: NewTransaction) => NEW_TRANSACTION.map((c) => t[c]);

/** Both halves of a transfer in one statement: two ids drawn, the smaller for the first half, whose id both carry. */
function transferStatement(w: StatementWriter) {
  const next = w.d.nextId('transactions')!;
  const parameters = NEW_TRANSACTION.map((c) => w.d.typedParameter(TABLES.transactions.columns[c].type)).join(', ');
  const half = (id: string) => `SELECT ${id}, ${parameters}, first, ${w.d.typedParameter('text')} FROM ids`;
  return w.statement(
    'transactions.insertTransfer',
    `WITH drawn AS (SELECT ${next} AS x, ${next} AS y),
     ids AS (SELECT least(x, y) AS first, greatest(x, y) AS second FROM drawn),
     inserted AS (
       INSERT INTO transactions (id, ${NEW_TRANSACTION.join(', ')}, transfer_id, created_at)
       ${half('first')} UNION ALL ${half('second')}
     )
     SELECT first, second FROM ids`,
    'rows',
    (t): [first: number, second: number] => [t[0] as number, t[1] as number],
    ([a, b, now]: [first: NewTransaction, second: NewTransaction, now: string]) => [...halfValues(a), now, ...halfValues(b), now],
  );
}

function transactionStatements(w: StatementWriter) {
  const idList = w.d.inIdList('id');
  const last = 'FROM transactions WHERE account_id = ? ORDER BY payment_date DESC, id DESC LIMIT ?';
  return {
    // The index on (account_id, payment_date DESC, id DESC) holds the ids: answered from the index alone.
    lastIds: w.values<number, [accountId: number, limit: number]>('transactions.lastIds', `SELECT id ${last}`),
    last: w.rows<TransactionRow, [accountId: number, limit: number]>('transactions.last', ROWS.transaction, last),
    byId: w.rows<TransactionRow, [id: number]>('transactions.byId', ROWS.transaction, 'FROM transactions WHERE id = ?'),
    byIds: w.only(idList !== null, () =>
      w.rows<TransactionRow, [ids: number[]]>('transactions.byIds', ROWS.transaction, `FROM transactions WHERE ${idList}`),
    ),
    insert: w.insert('transactions.insert', 'transactions', [...NEW_TRANSACTION, 'transfer_id', 'created_at'] as const),
    link: w.change<[transferId: number, id: number]>('transactions.link', 'UPDATE transactions SET transfer_id = ? WHERE id = ?'),
    insertTransfer: w.only(w.d.insertsInWith && w.d.nextId('transactions') !== null, () => transferStatement(w)),
  };
}

function templateStatements(w: StatementWriter) {
  return {
    listFor: w.rows<TemplateRow, [userId: number]>(
      'templates.listFor',
      ROWS.template,
      'FROM templates t JOIN accounts a ON a.id = t.account_id WHERE t.user_id = ? ORDER BY t.ord, t.id',
      { templates: 't', accounts: 'a' },
    ),
    insert: w.insert('templates.insert', 'templates', [...NEW_TEMPLATE, 'created_at']),
  };
}

function categoryStatements(w: StatementWriter) {
  const { ifNull } = w.d;
  return {
    listFor: w.rows<CategoryRow, [userId: number]>('categories.listFor', ROWS.category, 'FROM categories WHERE user_id = ? ORDER BY id'),
    getFor: w.rows<CategoryRow, [id: number, userId: number]>(
      'categories.getFor',
      ROWS.category,
      'FROM categories WHERE id = ? AND user_id = ?',
    ),
    depth: w.values<number | null, [id: number]>(
      'categories.depth',
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM categories WHERE id = ?
         UNION ALL SELECT c.id, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
       ) SELECT max(depth) AS depth FROM up`,
    ),
    sibling: w.values<number, [userId: number, parentId: number, nameKey: string, exceptId: number]>(
      'categories.sibling',
      `SELECT id FROM categories WHERE user_id = ? AND ${ifNull}(parent_id, 0) = ? AND name_key = ? AND id <> ?`,
    ),
    insert: w.insert('categories.insert', 'categories', ['user_id', 'parent_id', 'name', 'name_key', 'created_at']),
    rename: w.update('categories.rename', 'categories', ['name', 'name_key']),
    // A transfer is one booking though it writes two transactions.
    favorites: w.rows<CategoryRow, [userId: number, from: string, to: string, limit: number]>(
      'categories.favorites',
      ROWS.category,
      `FROM categories c JOIN transactions t ON t.category_id = c.id
       WHERE c.user_id = ? AND t.payment_date >= ? AND t.payment_date <= ?
       GROUP BY c.id ORDER BY COUNT(DISTINCT ${ifNull}(t.transfer_id, t.id)) DESC, c.id LIMIT ?`,
      { categories: 'c' },
    ),
  };
}

function refuelingStatements(w: StatementWriter) {
  return {
    last: w.rows<RefuelingRow, [userId: number, carId: number, limit: number]>(
      'refuelings.last',
      ROWS.refueling,
      'FROM refuelings WHERE user_id = ? AND car_id = ? ORDER BY date_of_purchase DESC, id DESC LIMIT ?',
    ),
    getFor: w.rows<RefuelingRow, [id: number, userId: number]>(
      'refuelings.getFor',
      ROWS.refueling,
      'FROM refuelings WHERE id = ? AND user_id = ?',
    ),
    insert: w.insert('refuelings.insert', 'refuelings', ['user_id', 'created_by', ...REFUELING_FIELDS, 'created_at', 'updated_at']),
    update: w.update('refuelings.update', 'refuelings', [...REFUELING_FIELDS, 'updated_at']),
  };
}

function statementsOf(d: Dialect) {
  const w = new StatementWriter(d);
  return {
    users: userStatements(w),
    accounts: accountStatements(w),
    transactions: transactionStatements(w),
    templates: templateStatements(w),
    categories: categoryStatements(w),
    refuelings: refuelingStatements(w),
  };
}

export type Statements = ReturnType<typeof statementsOf>;

const made = new Map<Dialect, Statements>();

/** The dialect's statements, made at their first use and the same objects from then on. */
export function statementsFor(d: Dialect): Statements {
  let statements = made.get(d);
  if (statements === undefined) {
    statements = statementsOf(d);
    made.set(d, statements);
  }
  return statements;
}

/** Every statement of the dialect (a SQLite connection prepares them all when it opens). */
export function everyStatement(statements: Statements): Statement<unknown, never>[] {
  return Object.values(statements).flatMap((area) =>
    Object.values(area as Record<string, Statement<unknown, never> | null>).filter((s): s is Statement<unknown, never> => s !== null),
  );
}

/** A connection of either database with its statements. */
export type StoreConnection = SqlConnection<Statements>;
