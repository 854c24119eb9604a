/** Files: CSV export of transactions, refuelings, car costs and reports, the refueling and car-cost imports, backup and restore. */
import type { CoreParts, Handlers } from '../app/core-parts';
import { backupHandlers } from './backup';
import { carCostFileHandlers } from './car-cost-files';
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
  | 'listSafetyCopies'
  | 'exportCarCostsCsv'
  | 'importCarCosts';

export function fileHandlers(parts: CoreParts): Handlers<FileMethod> {
  return { ...exportHandlers(parts), ...importHandlers(parts), ...backupHandlers(parts), ...carCostFileHandlers(parts) };
}
