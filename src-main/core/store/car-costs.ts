/**
 * A car's other costs and its reminders: records kept on this computer only, each in its own table
 * (car_costs, reminders) with an id of its own. The statements come from the records' field tables.
 */
import { CAR_COST, type CarCostStored } from '../../../src-shared/records/car-cost';
import type { AnyRecord } from '../../../src-shared/records/fields';
import { REMINDER, type ReminderStored } from '../../../src-shared/records/reminder';
import { columnList, columnsOf, paramList, rowParams, rowReader, type Prepare, type Row } from './record-sql';

/** The rows of one local record's table, by car: list, read, add, change and delete. */
class LocalRecords<T extends { id: number; carId: number }> {
  private readonly keys: string[];
  private readonly read: (row: Row) => T;
  private readonly insert: string;
  private readonly update: string;

  constructor(
    private readonly sql: Prepare,
    private readonly record: AnyRecord & { stored: readonly string[] },
    private readonly table: string,
    private readonly order: string,
  ) {
    this.keys = record.stored.filter((k) => k !== 'id');
    const columns = columnsOf(record, this.keys);
    this.read = rowReader<T>(record, record.stored);
    this.insert = `INSERT INTO ${table} (${columnList(columns)}) VALUES (${paramList(columns)})`;
    this.update = `UPDATE ${table} SET ${columns.map((c) => `${c.column} = @${c.param}`).join(', ')} WHERE id = @id`;
  }

  /** A car's rows (every car's without one), in the table's order. */
  list(carId?: number): T[] {
    const rows =
      carId === undefined
        ? this.sql(`SELECT * FROM ${this.table} ORDER BY car_id, ${this.order}`).all()
        : this.sql(`SELECT * FROM ${this.table} WHERE car_id = ? ORDER BY ${this.order}`).all(carId);
    return (rows as Row[]).map(this.read);
  }

  get(id: number): T | null {
    const row = this.sql(`SELECT * FROM ${this.table} WHERE id = ?`).get(id) as Row | undefined;
    return row ? this.read(row) : null;
  }

  /** Adds a row; returns its id. */
  add(values: Omit<T, 'id'>): number {
    return Number(this.sql(this.insert).run(rowParams(this.record, this.keys, values)).lastInsertRowid);
  }

  /** Changes a row; false when there is none of that id. */
  change(values: T): boolean {
    return this.sql(this.update).run({ ...rowParams(this.record, this.keys, values), id: values.id }).changes > 0;
  }

  remove(id: number): boolean {
    return this.sql(`DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }
}

/** A car's other costs, newest first. */
export class CarCosts extends LocalRecords<CarCostStored> {
  constructor(sql: Prepare) {
    super(sql, CAR_COST, 'car_costs', 'date DESC, id DESC');
  }
}

/** A car's reminders: open ones first, the soonest date first, then by the reading they are due at. */
export class Reminders extends LocalRecords<ReminderStored> {
  constructor(sql: Prepare) {
    super(sql, REMINDER, 'reminders', 'done, due_date IS NULL, due_date, due_odometer IS NULL, due_odometer, id');
  }
}
