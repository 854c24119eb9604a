/**
 * Marks: the fields of records kept here only (the local fields of a record's table), in `<record>_marks`,
 * keyed by the record's id (a temporary one until its create succeeds, then moved to the service's id).
 */
import { marksKey, marksTable, type MarkedRecord } from '../../../src-shared/records/fields';
import { columnList, columnsOf, paramList, rowParams, rowReader, updateList, type Prepare, type Row } from './record-sql';

/** The entries whose value is set (a column added later holds NULL in rows written before). */
function withoutNulls<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

export class Marks {
  constructor(private readonly sql: Prepare) {}

  /** The marks this app keeps of a record's records, by the records' ids. */
  of<R extends MarkedRecord>(record: R): Map<number, R['localDefaults']> {
    if (record.local.length === 0) return new Map();
    const read = rowReader<Partial<R['localDefaults']>>(record, record.local);
    const key = marksKey(record);
    const rows = this.sql(`SELECT * FROM ${marksTable(record)}`).all() as Row[];
    return new Map(rows.map((r) => [r[key] as number, { ...record.localDefaults, ...withoutNulls(read(r)) }]));
  }

  /** Sets marks of a record (a temporary id until its create succeeds); the others keep their values. */
  set<R extends MarkedRecord>(record: R, id: number, values: Partial<R['localDefaults']>): void {
    const given = record.local.filter((k) => (values as Record<string, unknown>)[k] !== undefined);
    if (given.length === 0) return;
    // A new row holds every mark (those not given at their defaults: SQLite checks NOT NULL before it
    // finds the conflict); an existing one changes only the marks given.
    const all = columnsOf(record, record.local);
    const changed = columnsOf(record, given);
    this.sql(
      `INSERT INTO ${marksTable(record)} (${marksKey(record)}, ${columnList(all)}) VALUES (@id, ${paramList(all)})
       ON CONFLICT (${marksKey(record)}) DO UPDATE SET ${updateList(changed)}`,
    ).run({ id, ...rowParams(record, record.local, { ...record.localDefaults, ...values }) });
  }

  /** The marks of a record created offline follow it to the service's id. */
  move(record: MarkedRecord, tempId: number, realId: number): void {
    this.sql(`UPDATE OR REPLACE ${marksTable(record)} SET ${marksKey(record)} = ? WHERE ${marksKey(record)} = ?`).run(realId, tempId);
  }

  /** Ids of the records whose flag mark is set (refuelings marked as partial fills). */
  flagged(record: MarkedRecord, flag: string): Set<number> {
    const column = record.fields[flag]?.column;
    if (!column || !record.local.includes(flag)) throw new Error(`${flag} is no local field of ${record.name}`);
    return new Set(
      this.sql(`SELECT ${marksKey(record)} FROM ${marksTable(record)} WHERE ${column} = 1`)
        .pluck()
        .all() as number[],
    );
  }
}
