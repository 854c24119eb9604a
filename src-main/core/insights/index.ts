/** Statistics, reports and search over the whole local history. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';

export type InsightMethod = 'getFuelStats' | 'setRefuelingPartial' | 'getReport' | 'searchTransactions';

export function insightHandlers(parts: CoreParts): Handlers<InsightMethod> {
  void parts;
  const unbuilt = async (): Promise<never> => {
    throw new AppError('internal', 'Not built yet.');
  };
  return { getFuelStats: unbuilt, setRefuelingPartial: unbuilt, getReport: unbuilt, searchTransactions: unbuilt };
}
