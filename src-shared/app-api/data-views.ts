/** Files the app makes and reads: CSV exports, the refueling import and backups of the local copy. */
import type { CsvSeparator, DecimalMark } from '../csv-dialect';
import type { RefuelingImportField, RefuelingLocals, RefuelingWrite } from '../records/refueling';
import type { AppErrorData } from './errors';
import type { Id } from './views';

export interface CsvFile {
  /** A suggested file name, e.g. "transactions-2026-11-21.csv". */
  fileName: string;
  /** UTF-8 text (a BOM first where the dialect has one) with a header row, RFC 4180 quoting in the dialect's separator, exact numbers. */
  content: string;
  rows: number;
}

/** The refueling fields a CSV column can be mapped to (those of its field table with CSV names). */
export type ImportField = RefuelingImportField;

/** Column index (0-based) per field; date, odometer, litres and price are required. */
export type ImportMapping = Partial<Record<ImportField, number>>;

export interface ImportRow {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  /** The refueling the row becomes; null when it has problems. */
  refueling: (RefuelingWrite & RefuelingLocals) | null;
  problems: ImportProblem[];
  /** An existing refueling of the car with the same date, odometer and litres (or an earlier row). */
  duplicateOf: { id: Id | null; line: number | null } | null;
}

/**
 * A problem of an imported row: what is wrong (an error code with its parameters, `field` the refueling
 * field it is about) and where: the column that holds the value, or none (the field has no column).
 */
export interface ImportProblem extends AppErrorData {
  column: { index: number; name: string | null } | null;
}

/**
 * What an import found the file written in (the rules: src-main/core/files/csv-reader.ts): the separator of
 * its cells, whether it began with a UTF-8 byte order mark, the decimal mark of its numbers.
 */
export interface CsvDetected {
  delimiter: CsvSeparator;
  bom: boolean;
  /** null: the numbers tell nothing (no 40.5 or 40,5 among them), each is read by its own look. */
  decimalMark: DecimalMark | null;
}

export interface ImportPreview extends CsvDetected {
  carId: number;
  header: string[];
  /** The mapping used: the one given, or one guessed from the header. */
  mapping: ImportMapping;
  rows: ImportRow[];
  counts: { rows: number; ready: number; problems: number; duplicates: number };
}

export interface ImportResult {
  queued: number;
  skipped: number;
}

export interface RecordCounts {
  accounts: number;
  transactions: number;
  templates: number;
  categories: number;
  cars: number;
  refuelings: number;
  /** Kept here only (never sent), carried by backups all the same. */
  budgets: number;
  /** A car's other costs and its reminders: kept here only as budgets are. */
  carCosts: number;
  reminders: number;
  pendingWrites: number;
}

export interface BackupFile {
  fileName: string;
  /** The SQLite file, base64. */
  data: string;
  bytes: number;
  counts: RecordCounts;
}

export interface RestoreResult {
  counts: RecordCounts;
  /** When the backup was made (its own record), if it says. */
  backedUpAt: string | null;
  /**
   * Writes of the backup that may have reached the service since it was made (this local copy no
   * longer holds them as unsent): they wait in the outbox as "unknown" for the user to check the
   * service and send them again or discard them, rather than risk booking them twice.
   */
  uncertainWrites: number;
}
