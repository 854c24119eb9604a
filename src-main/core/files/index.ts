/** Files: CSV export of transactions, refuelings and reports, the refueling import, backup and restore. */
import type { CoreParts, Handlers } from '../app/core-parts';
import { backupHandlers } from './backup';
import { exportHandlers } from './exports';
import { importHandlers } from './refueling-import';

export type FileMethod =
  | 'exportTransactionsCsv'
  | 'exportRefuelingsCsv'
  | 'exportReportCsv'
  | 'previewRefuelingImport'
  | 'importRefuelings'
  | 'createBackup'
  | 'restoreBackup'
  | 'listSafetyCopies';

export function fileHandlers(parts: CoreParts): Handlers<FileMethod> {
  return { ...exportHandlers(parts), ...importHandlers(parts), ...backupHandlers(parts) };
}
