/** Reads of the records the service keeps (accounts, transactions, templates, categories, refuelings) and the local car list. */
import { AppError } from '../../../src-shared/app-api';
import { carIdsSeen, checkCarId, fetchCarRefuelings } from '../cars/car-ids';
import type { CoreServices, Handlers } from './core-parts';
import { accountsView, carRefuelingsView, carsView, categoryTreeView, templatesView, transactionPage } from './read-views';

type RecordMethod =
  | 'listAccounts'
  | 'listTransactions'
  | 'listTemplates'
  | 'getCategoryTree'
  | 'listCars'
  | 'saveCar'
  | 'removeCar'
  | 'listRefuelings'
  | 'listCarIdsSeen'
  | 'checkCarId'
  | 'fetchCarRefuelings';

export function recordHandlers(core: CoreServices): Handlers<RecordMethod> {
  const { store, view, outbox } = core;
  return {
    listAccounts: async (i) => accountsView(store, view, i),
    listTransactions: async (i) => {
      if (!view.account(i.accountId)) throw new AppError('accountMissing', { id: i.accountId }, 'accountId');
      return transactionPage(store, view, {
        accountId: outbox.resolve(i.accountId),
        offset: i.offset ?? 0,
        limit: i.limit ?? 50,
        search: i.search,
      });
    },
    listTemplates: async () => templatesView(store, view),
    getCategoryTree: async () => categoryTreeView(store, view),
    listCars: async () => carsView(store, view),
    saveCar: async (i) => {
      store.cars.save(i, core.now());
      await core.changed(['cars']);
      return carsView(store, view);
    },
    removeCar: async (i) => {
      if (view.pendingCars().has(i.carId)) throw new AppError('carHasPending', { carId: i.carId }, 'carId');
      if (!store.cars.remove(i.carId)) throw new AppError('carNotInList', { carId: i.carId }, 'carId');
      await core.changed(['cars']);
      return carsView(store, view);
    },
    listRefuelings: async (i) => carRefuelingsView(store, view, i.carId),
    listCarIdsSeen: async () => carIdsSeen(store, view),
    checkCarId: (i) =>
      checkCarId(
        i.carId,
        store,
        () => core.link.soapClient(),
        (e) => core.toAppError(e),
      ),
    fetchCarRefuelings: async (i) => {
      const { fetch, changed } = await fetchCarRefuelings(
        i.carId,
        store,
        () => core.link.soapClient(),
        (e) => core.toAppError(e),
      );
      if (changed > 0) await core.changed(['refuelings', 'cars']);
      return fetch;
    },
  };
}
