/** Statistics, reports and search over the whole local history. */
import { AppError } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';
import { carRefuelingsView } from '../app/read-views';
import { fuelStats } from './fuel-stats';
import { categoryReport } from './reports';
import { searchPage } from './search';

export type InsightMethod = 'getFuelStats' | 'setRefuelingPartial' | 'getReport' | 'searchTransactions';

/** The currency a car without refuelings is shown in: the last one the user chose, else the Czech crown. */
const DEFAULT_CURRENCY = 203;

export function insightHandlers(parts: CoreParts): Handlers<InsightMethod> {
  return {
    getFuelStats: async (i) =>
      fuelStats({
        carId: i.carId,
        includeFlagged: i.includeFlagged ?? false,
        refuelings: parts.view.refuelings(i.carId),
        partial: parts.store.refuelings.partialIds(),
        from: i.from,
        to: i.to,
        fillsOffset: i.fillsOffset,
        fillsLimit: i.fillsLimit,
        fallbackCurrency: parts.preferences().lastCurrency ?? DEFAULT_CURRENCY,
      }),
    setRefuelingPartial: async (i) => {
      // Resolving and marking in one synchronous step: a sync cannot move the mark in between.
      const carId = parts.store.transaction(() => {
        const refueling = parts.view.refueling(i.id);
        if (!refueling) throw new AppError('refuelingMissing', { id: i.id }, 'id');
        parts.store.refuelings.setPartial(refueling.id, i.partial);
        return refueling.carId;
      });
      await parts.changed(['refuelings']);
      return carRefuelingsView(parts.store, parts.view, carId);
    },
    getReport: async (i) => categoryReport(parts, i),
    searchTransactions: async (i) => searchPage(parts, i),
  };
}
