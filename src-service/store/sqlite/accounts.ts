/** Accounts and who may do what with them. */
import { PERMISSION, type AccountFields, type AccountRow, type EditableAccountFields as EditableFields, type Permission } from '../rows';
import type { AccountAccess } from '../seam';
import type { Db } from './database';

/** The editable fields as the statements bind them: SQLite takes no booleans. */
function bindable<F extends EditableFields>(f: F): Omit<F, 'IsActive' | 'IsHidden' | 'Locked'> & Record<'IsActive' | 'IsHidden' | 'Locked', number> {
  return { ...f, IsActive: +f.IsActive, IsHidden: +f.IsHidden, Locked: +f.Locked };
}

const COLUMNS =
  'a.id, a.owner_id, a.name, a.description, a.currency, a.type, a.is_active, a.is_hidden, a.locked, a.ord, a.balance_minor, p.permission';
type AccountTuple = [number, number, string, string, number, number, number, number, number, number, number, Permission];

export class AccountStore implements AccountAccess {
  private readonly listStmt;
  private readonly getStmt;
  private readonly ownerStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly grantStmt;

  constructor(db: Db) {
    // Rows as arrays, as for the last transactions: this list is on the hot path.
    this.listStmt = db
      .prepare<[number], AccountTuple>(
        `SELECT ${COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
         WHERE p.user_id = ? ORDER BY a.ord, a.id`,
      )
      .raw();
    this.getStmt = db.prepare<[number, number], AccountRow>(
      `SELECT ${COLUMNS} FROM account_permissions p JOIN accounts a ON a.id = p.account_id
       WHERE p.account_id = ? AND p.user_id = ?`,
    );
    this.ownerStmt = db.prepare<[number], { owner_id: number }>('SELECT owner_id FROM accounts WHERE id = ?');
    // Named parameters; booleans are stored as 0/1.
    this.insertStmt = db.prepare<[ReturnType<typeof bindable<AccountFields>> & { ownerId: number; now: string }]>(
      `INSERT INTO accounts (owner_id, name, description, currency, type, is_active, is_hidden, locked, ord, created_at)
       VALUES (@ownerId, @Name, @Description, @Currency, @Type, @IsActive, @IsHidden, @Locked, @Ord, @now)`,
    );
    this.updateStmt = db.prepare<[ReturnType<typeof bindable<EditableFields>> & { id: number }]>(
      `UPDATE accounts SET name = @Name, description = @Description, type = @Type, is_active = @IsActive,
                           is_hidden = @IsHidden, locked = @Locked, ord = @Ord
       WHERE id = @id`,
    );
    this.grantStmt = db.prepare<[number, number, number]>(
      `INSERT INTO account_permissions (account_id, user_id, permission) VALUES (?, ?, ?)
       ON CONFLICT (account_id, user_id) DO UPDATE SET permission = excluded.permission`,
    );
  }

  listFor(userId: number): AccountRow[] {
    return this.listStmt.all(userId).map((r) => ({
      id: r[0],
      owner_id: r[1],
      name: r[2],
      description: r[3],
      currency: r[4],
      type: r[5],
      is_active: r[6],
      is_hidden: r[7],
      locked: r[8],
      ord: r[9],
      balance_minor: r[10],
      permission: r[11],
    }));
  }

  getFor(accountId: number, userId: number): AccountRow | undefined {
    return this.getStmt.get(accountId, userId);
  }

  ownerOf(accountId: number): number | undefined {
    return this.ownerStmt.get(accountId)?.owner_id;
  }

  /** Call inside a transaction. */
  insert(ownerId: number, f: AccountFields): number {
    const id = Number(this.insertStmt.run({ ...bindable(f), ownerId, now: new Date().toISOString() }).lastInsertRowid);
    this.grant(id, ownerId, PERMISSION.owner);
    return id;
  }

  update(accountId: number, f: EditableFields): void {
    this.updateStmt.run({ ...bindable(f), id: accountId });
  }

  grant(accountId: number, userId: number, permission: Permission): void {
    this.grantStmt.run(accountId, userId, permission);
  }

  /** Nothing to do: a SQLite write holds the whole file (one writer at a time). */
  holdForBooking(): void {}
}
