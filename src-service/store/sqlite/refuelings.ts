/** Refuelings of the users' cars. */
import { LAST_REFUELINGS, type RefuelingFields, type RefuelingRow } from '../rows';
import type { RefuelingAccess } from '../seam';
import type { Db } from './database';

const COLUMNS =
  'id, user_id, car_id, created_by, date_of_purchase, tachometer, liter, price_minor, description, currency, rate';

export class RefuelingStore implements RefuelingAccess {
  private readonly lastStmt;
  private readonly getStmt;
  private readonly insertStmt;
  private readonly updateStmt;

  constructor(db: Db) {
    this.lastStmt = db.prepare<[number, number, number], RefuelingRow>(
      `SELECT ${COLUMNS} FROM refuelings WHERE user_id = ? AND car_id = ?
       ORDER BY date_of_purchase DESC, id DESC LIMIT ?`,
    );
    this.getStmt = db.prepare<[number, number], RefuelingRow>(`SELECT ${COLUMNS} FROM refuelings WHERE id = ? AND user_id = ?`);
    // Named parameters: the statements take a RefuelingFields object as it is.
    this.insertStmt = db.prepare<[RefuelingFields & { userId: number; createdBy: number; now: string }]>(
      `INSERT INTO refuelings (user_id, car_id, created_by, date_of_purchase, tachometer, liter, price_minor, description,
                               currency, rate, created_at, updated_at)
       VALUES (@userId, @carId, @createdBy, @dateOfPurchase, @tachometer, @liter, @priceMinor, @description,
               @currency, @rate, @now, @now)`,
    );
    this.updateStmt = db.prepare<[RefuelingFields & { id: number; now: string }]>(
      `UPDATE refuelings SET car_id = @carId, date_of_purchase = @dateOfPurchase, tachometer = @tachometer, liter = @liter,
                             price_minor = @priceMinor, description = @description, currency = @currency, rate = @rate,
                             updated_at = @now
       WHERE id = @id`,
    );
  }

  last(userId: number, carId: number, limit = LAST_REFUELINGS): RefuelingRow[] {
    return this.lastStmt.all(userId, carId, limit);
  }

  getFor(id: number, userId: number): RefuelingRow | undefined {
    return this.getStmt.get(id, userId);
  }

  insert(userId: number, createdBy: number, f: RefuelingFields): number {
    return Number(this.insertStmt.run({ ...f, userId, createdBy, now: new Date().toISOString() }).lastInsertRowid);
  }

  update(id: number, f: RefuelingFields): void {
    this.updateStmt.run({ ...f, id, now: new Date().toISOString() });
  }
}
