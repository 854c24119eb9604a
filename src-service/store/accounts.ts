/** Accounts and who may do what with them. */
import type { Db } from './database';

export type Permission = 1 | 2 | 3;
export const PERMISSION = { read: 1, write: 2, owner: 3 } as const;

export interface AccountFields {
  name: string;
  description: string;
  currency: number;
  type: number;
  isActive: boolean;
  isHidden: boolean;
  locked: boolean;
  ord: number;
}

/** An account as one user sees it: with that user's permission on it. */
export interface AccountRow {
  id: number;
  owner_id: number;
  name: string;
  description: string;
  currency: number;
  type: number;
  is_active: number;
  is_hidden: number;
  locked: number;
  ord: number;
  balance_minor: number;
  permission: Permission;
}

const COLUMNS =
  'a.id, a.owner_id, a.name, a.description, a.currency, a.type, a.is_active, a.is_hidden, a.locked, a.ord, a.balance_minor, p.permission';

export class AccountStore {
  private readonly listStmt;
  private readonly getStmt;
  private readonly ownerStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly grantStmt;

  constructor(db: Db) {
    this.listStmt = db.prepare<[number], AccountRow>(
      `SELECT ${COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
       WHERE p.user_id = ? ORDER BY a.ord, a.id`,
    );
    this.getStmt = db.prepare<[number, number], AccountRow>(
      `SELECT ${COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
       WHERE p.account_id = ? AND p.user_id = ?`,
    );
    this.ownerStmt = db.prepare<[number], { owner_id: number }>('SELECT owner_id FROM accounts WHERE id = ?');
    this.insertStmt = db.prepare<[number, string, string, number, number, number, number, number, number, string]>(
      `INSERT INTO accounts (owner_id, name, description, currency, type, is_active, is_hidden, locked, ord, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.updateStmt = db.prepare<[string, string, number, number, number, number, number, number]>(
      `UPDATE accounts SET name = ?, description = ?, type = ?, is_active = ?, is_hidden = ?, locked = ?, ord = ?
       WHERE id = ?`,
    );
    this.grantStmt = db.prepare<[number, number, number]>(
      `INSERT INTO account_permissions (account_id, user_id, permission) VALUES (?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET permission = excluded.permission`,
    );
  }

  /** The accounts a user holds a permission on, by Ord then Id. */
  listFor(userId: number): AccountRow[] {
    return this.listStmt.all(userId);
  }

  /** The account as the user sees it; undefined when it does not exist or the user holds no permission. */
  getFor(accountId: number, userId: number): AccountRow | undefined {
    return this.getStmt.get(accountId, userId);
  }

  /** The id of the user who owns the account; undefined when there is no such account. */
  ownerOf(accountId: number): number | undefined {
    return this.ownerStmt.get(accountId)?.owner_id;
  }

  /** Creates an account owned by `ownerId` (permission 3). Call inside a transaction. */
  insert(ownerId: number, f: AccountFields): number {
    const id = Number(
      this.insertStmt.run(
        ownerId,
        f.name,
        f.description,
        f.currency,
        f.type,
        +f.isActive,
        +f.isHidden,
        +f.locked,
        f.ord,
        new Date().toISOString(),
      ).lastInsertRowid,
    );
    this.grant(id, ownerId, PERMISSION.owner);
    return id;
  }

  /** Replaces every field but the currency, which no operation changes. */
  update(accountId: number, f: Omit<AccountFields, 'currency'>): void {
    this.updateStmt.run(f.name, f.description, f.type, +f.isActive, +f.isHidden, +f.locked, f.ord, accountId);
  }

  grant(accountId: number, userId: number, permission: Permission): void {
    this.grantStmt.run(accountId, userId, permission);
  }
}
