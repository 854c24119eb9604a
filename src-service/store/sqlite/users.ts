/** Users and registered client applications. */
import { clientKeyHash, loginKey, type UserRow } from '../rows';
import type { UserAccess } from '../seam';
import type { Db } from './database';

export class UserStore implements UserAccess {
  private readonly byLoginStmt;
  private readonly insertStmt;
  private readonly setHashStmt;
  private readonly clientStmt;
  private readonly insertClientStmt;
  private readonly setClientEnabledStmt;

  constructor(db: Db) {
    this.byLoginStmt = db.prepare<[string], UserRow>(
      'SELECT id, login, password_hash, currency FROM users WHERE login_key = ?',
    );
    this.insertStmt = db.prepare<[string, string, string, number, string]>(
      'INSERT INTO users (login, login_key, password_hash, currency, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.setHashStmt = db.prepare<[string, number]>('UPDATE users SET password_hash = ? WHERE id = ?');
    this.clientStmt = db.prepare<[string], { enabled: number }>('SELECT enabled FROM client_apps WHERE key_hash = ?');
    this.insertClientStmt = db.prepare<[string, string, string]>(
      'INSERT INTO client_apps (key_hash, label, enabled, created_at) VALUES (?, ?, 1, ?)',
    );
    this.setClientEnabledStmt = db.prepare<[number, string]>('UPDATE client_apps SET enabled = ? WHERE key_hash = ?');
  }

  byLogin(login: string): UserRow | undefined {
    return this.byLoginStmt.get(loginKey(login));
  }

  insert(login: string, passwordHash: string, currency: number): number {
    const info = this.insertStmt.run(login, loginKey(login), passwordHash, currency, new Date().toISOString());
    return Number(info.lastInsertRowid);
  }

  setPasswordHash(userId: number, passwordHash: string): void {
    this.setHashStmt.run(passwordHash, userId);
  }

  isClientEnabled(key: string): boolean {
    return this.clientStmt.get(clientKeyHash(key))?.enabled === 1;
  }

  clientExists(key: string): boolean {
    return this.clientStmt.get(clientKeyHash(key)) !== undefined;
  }

  insertClient(key: string, label: string): void {
    this.insertClientStmt.run(clientKeyHash(key), label, new Date().toISOString());
  }

  setClientEnabled(key: string, enabled: boolean): boolean {
    return this.setClientEnabledStmt.run(enabled ? 1 : 0, clientKeyHash(key)).changes > 0;
  }
}
