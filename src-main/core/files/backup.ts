/** Backup and restore of the local copy. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';

export function backupHandlers(parts: CoreParts): Handlers<'createBackup' | 'restoreBackup'> {
  void parts;
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Not built yet.');
  };
  return { createBackup: unbuilt, restoreBackup: unbuilt };
}
