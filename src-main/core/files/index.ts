/** Files: CSV export of transactions and refuelings, the refueling import, backup and restore. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';

export type FileMethod = 'exportTransactionsCsv' | 'exportRefuelingsCsv' | 'previewRefuelingImport' | 'importRefuelings' | 'createBackup' | 'restoreBackup';

export function fileHandlers(parts: CoreParts): Handlers<FileMethod> {
  void parts;
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Not built yet.');
  };
  return {
    exportTransactionsCsv: unbuilt,
    exportRefuelingsCsv: unbuilt,
    previewRefuelingImport: unbuilt,
    importRefuelings: unbuilt,
    createBackup: unbuilt,
    restoreBackup: unbuilt,
  };
}
