/** Cars: the service has no car list, so a car is a CarId the user named here (`created_at`: when first named). */
import { CAR } from '../../../src-shared/records/car';
import { columnList, columnsOf, paramList, rowParams, rowReader, updateList, type Prepare, type Row } from './record-sql';
import type { CarRow } from './rows';

const CAR_COLUMNS = columnsOf(CAR, CAR.stored);
const SAVE_CAR = `INSERT INTO cars (${columnList(CAR_COLUMNS)}, created_at) VALUES (${paramList(CAR_COLUMNS)}, @createdAt)
  ON CONFLICT (car_id) DO UPDATE SET ${updateList(CAR_COLUMNS.filter((c) => c.param !== 'carId'))}`;
const carOf = rowReader<CarRow>(CAR, CAR.stored);

export class Cars {
  constructor(private readonly sql: Prepare) {}

  /** The named cars, by name. */
  list(): CarRow[] {
    return (this.sql(`SELECT ${columnList(CAR_COLUMNS)} FROM cars ORDER BY name COLLATE NOCASE, car_id`).all() as Row[]).map(carOf);
  }

  /** Names a car (`now`: when, if it is new), or renames it. */
  save(car: CarRow, now: string): void {
    this.sql(SAVE_CAR).run({ ...rowParams(CAR, CAR.stored, car), createdAt: now });
  }

  /**
   * Takes a car's name off the list. Its refuelings stay, as all history does: the number stays among
   * those seen, and naming it again brings its history back at once (they are no longer pulled meanwhile).
   */
  remove(carId: number): boolean {
    return this.sql('DELETE FROM cars WHERE car_id = ?').run(carId).changes > 0;
  }
}
