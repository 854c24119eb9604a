/** The register: keyset pages of the whole local history with running balances, and one row's detail. */
import type { CoreParts, Handlers } from '../app/core-parts';
import { transactionDetail } from './detail';
import { registerPage } from './register';

export type RegisterMethod = 'listRegister' | 'getTransaction';

export function registerHandlers(parts: CoreParts): Handlers<RegisterMethod> {
  return {
    listRegister: async (i) => registerPage(parts, i),
    getTransaction: async (i) => transactionDetail(parts, i.key),
  };
}
