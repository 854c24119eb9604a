/** Each user's category forest. */
import { categoryNameKey, type CategoryRow } from '../rows';
import type { CategoryAccess } from '../seam';
import type { Db } from './database';

export class CategoryStore implements CategoryAccess {
  private readonly listStmt;
  private readonly getStmt;
  private readonly depthStmt;
  private readonly siblingStmt;
  private readonly insertStmt;
  private readonly renameStmt;
  private readonly favoritesStmt;

  constructor(db: Db) {
    this.listStmt = db.prepare<[number], CategoryRow>(
      'SELECT id, parent_id, name FROM categories WHERE user_id = ? ORDER BY id',
    );
    this.getStmt = db.prepare<[number, number], CategoryRow>(
      'SELECT id, parent_id, name FROM categories WHERE id = ? AND user_id = ?',
    );
    // How many levels the category is deep: 1 for a top-level one.
    this.depthStmt = db.prepare<[number], { depth: number }>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM categories WHERE id = ?
         UNION ALL SELECT c.id, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
       ) SELECT MAX(depth) AS depth FROM up`,
    );
    this.siblingStmt = db.prepare<[number, number, string, number], { id: number }>(
      'SELECT id FROM categories WHERE user_id = ? AND IFNULL(parent_id, 0) = ? AND name_key = ? AND id <> ?',
    );
    this.insertStmt = db.prepare<[number, number | null, string, string, string]>(
      'INSERT INTO categories (user_id, parent_id, name, name_key, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.renameStmt = db.prepare<[string, string, number]>('UPDATE categories SET name = ?, name_key = ? WHERE id = ?');
    // A transfer is one booking though it writes two transactions.
    this.favoritesStmt = db.prepare<[number, string, string, number], CategoryRow & { uses: number }>(
      `SELECT c.id, c.parent_id, c.name, COUNT(DISTINCT IFNULL(t.transfer_id, t.id)) AS uses
       FROM categories c JOIN transactions t ON t.category_id = c.id
       WHERE c.user_id = ? AND t.payment_date >= ? AND t.payment_date <= ?
       GROUP BY c.id ORDER BY uses DESC, c.id LIMIT ?`,
    );
  }

  listFor(userId: number): CategoryRow[] {
    return this.listStmt.all(userId);
  }

  getFor(categoryId: number, userId: number): CategoryRow | undefined {
    return this.getStmt.get(categoryId, userId);
  }

  depth(categoryId: number): number {
    return this.depthStmt.get(categoryId)?.depth ?? 0;
  }

  siblingNamed(userId: number, parentId: number | null, name: string, exceptId = 0): boolean {
    return this.siblingStmt.get(userId, parentId ?? 0, categoryNameKey(name), exceptId) !== undefined;
  }

  insert(userId: number, parentId: number | null, name: string): number {
    return Number(
      this.insertStmt.run(userId, parentId, name, categoryNameKey(name), new Date().toISOString()).lastInsertRowid,
    );
  }

  rename(categoryId: number, name: string): void {
    this.renameStmt.run(name, categoryNameKey(name), categoryId);
  }

  favorites(userId: number, from: string, to: string, limit: number): CategoryRow[] {
    return this.favoritesStmt.all(userId, from, to, limit);
  }
}
