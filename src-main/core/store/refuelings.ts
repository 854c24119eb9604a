/** Refuelings the service listed, of any car number (also one no longer named here): a row changes only when a field does. */
import { REFUELING } from '../../../src-shared/records/refueling';
import type { Marks } from './marks';
import { changedCondition, columnList, columnsOf, paramList, rowParams, rowReader, updateList, type Prepare, type Row } from './record-sql';
import type { RefuelingRow } from './rows';

const REFUELING_COLUMNS = columnsOf(REFUELING, REFUELING.stored);
const REFUELING_KEPT = REFUELING_COLUMNS.filter((c) => c.param !== 'id');
const UPSERT_REFUELING = `INSERT INTO refuelings (${columnList(REFUELING_COLUMNS)})
  VALUES (${paramList(REFUELING_COLUMNS)})
  ON CONFLICT (id) DO UPDATE SET ${updateList(REFUELING_KEPT)}
  WHERE ${changedCondition('refuelings', REFUELING_KEPT)}`;
const refuelingOf = rowReader<RefuelingRow>(REFUELING, REFUELING.stored);

/** A car number with stored refuelings: how many, and the newest one's date and odometer. */
export interface RefuelingCarSummary {
  carId: number;
  refuelings: number;
  lastDate: string | null;
  lastTachometer: number | null;
}

export class Refuelings {
  constructor(
    private readonly sql: Prepare,
    private readonly marks: Marks,
  ) {}

  /** Car numbers with stored refuelings, with their counts and newest readings. */
  carSummaries(): RefuelingCarSummary[] {
    return (
      this.sql(
        `SELECT car_id, COUNT(*) AS n, MAX(date_of_purchase) AS last,
           (SELECT tachometer FROM refuelings r2 WHERE r2.car_id = r.car_id ORDER BY date_of_purchase DESC, id DESC LIMIT 1) AS tachometer
         FROM refuelings r GROUP BY car_id ORDER BY car_id`,
      ).all() as { car_id: number; n: number; last: string | null; tachometer: number | null }[]
    ).map((r) => ({ carId: r.car_id, refuelings: r.n, lastDate: r.last, lastTachometer: r.tachometer }));
  }

  /** A car's refuelings, newest first. */
  ofCar(carId: number): RefuelingRow[] {
    return (this.sql('SELECT * FROM refuelings WHERE car_id = ? ORDER BY date_of_purchase DESC, id DESC').all(carId) as Row[]).map(
      refuelingOf,
    );
  }

  get(id: number): RefuelingRow | null {
    const r = this.sql('SELECT * FROM refuelings WHERE id = ?').get(id) as Row | undefined;
    return r ? refuelingOf(r) : null;
  }

  /** Writes refuelings the service listed; returns how many were new or changed. */
  upsert(rows: readonly RefuelingRow[]): number {
    const stmt = this.sql(UPSERT_REFUELING);
    let changed = 0;
    for (const r of rows) changed += stmt.run(rowParams(REFUELING, REFUELING.stored, r)).changes;
    return changed;
  }

  /** Ids of a car's stored refuelings. */
  ids(carId: number): number[] {
    return this.sql('SELECT id FROM refuelings WHERE car_id = ?').pluck().all(carId) as number[];
  }

  /** Car ids that have stored refuelings. */
  carIds(): number[] {
    return this.sql('SELECT DISTINCT car_id FROM refuelings ORDER BY car_id').pluck().all() as number[];
  }

  /** Ids of refuelings marked as partial fills. */
  partialIds(): Set<number> {
    return this.marks.flagged(REFUELING, 'partial');
  }

  setPartial(refuelingId: number, partial: boolean): void {
    this.marks.set(REFUELING, refuelingId, { partial });
  }
}
