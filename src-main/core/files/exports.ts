/** CSV exports of transactions and refuelings. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';

export function exportHandlers(parts: CoreParts): Handlers<'exportTransactionsCsv' | 'exportRefuelingsCsv'> {
  void parts;
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Not built yet.');
  };
  return { exportTransactionsCsv: unbuilt, exportRefuelingsCsv: unbuilt };
}
