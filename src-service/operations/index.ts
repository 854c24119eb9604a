/**
 * One handler per operation, typed by the catalog: a handler takes the operation's `ParamsOf` and
 * returns its `ResultOf`, so the compiler checks every handler against the one description of the
 * interface. Handlers are flows (see store/flow.ts): written once, they run at once on SQLite and wait
 * for PostgreSQL's answers there. The caller runs each in a read or in a write transaction.
 */
import type { OperationName, ParamsOf, ResultOf } from '../../src-shared/catalog';
import type { AnyCall } from '../../src-shared/wire';
import type { Flow } from '../store';
import { addAccount, editAccount, listAccounts } from './accounts';
import { editRefueling, listRefuelings } from './car-fuel';
import { addCategory, categoryTree, editCategory } from './categories';
import type { CallContext } from './context';
import { addTransfer, lastTransactions, listTemplates } from './transactions';

type Handlers = { [N in OperationName]: (ctx: CallContext, params: ParamsOf<N>) => Flow<ResultOf<N>> };

/** The older variants answer the same records; the codec writes only the fields their shape has. */
export const HANDLERS: Handlers = {
  AccountList2: listAccounts,
  AccountListWithAmount2: listAccounts,
  AccountListWithAmount: listAccounts,
  TransactionListLast50_2: lastTransactions,
  TransactionListLast50: lastTransactions,
  DefineTransactionList: listTemplates,
  DefineTransactionList2: listTemplates,
  CarFuelList: listRefuelings,
  CategoryTree: categoryTree,
  AddAccount: addAccount,
  EditAccount: editAccount,
  AddTranferToOtherAccount: addTransfer,
  AddCategory: addCategory,
  EditCategory: editCategory,
  EditCarFuel: editRefueling,
};

export function runOperation(call: AnyCall, ctx: CallContext): Flow<ResultOf<OperationName>> {
  const handler = HANDLERS[call.operation] as (ctx: CallContext, params: unknown) => Flow<ResultOf<OperationName>>;
  return handler(ctx, call.params);
}

export type { CallContext } from './context';
