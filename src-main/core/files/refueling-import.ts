/** The import of refuelings from CSV. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';

export function importHandlers(parts: CoreParts): Handlers<'previewRefuelingImport' | 'importRefuelings'> {
  void parts;
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Not built yet.');
  };
  return { previewRefuelingImport: unbuilt, importRefuelings: unbuilt };
}
