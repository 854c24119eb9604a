/**
 * One handler per operation, typed by the catalog: a handler takes the operation's `ParamsOf` and
 * returns its `ResultOf`, so the compiler checks every handler against the one description of the
 * interface. Handlers are synchronous (better-sqlite3 is), and each write runs in one transaction.
 */
import type { OperationName, ParamsOf, ResultOf } from '../../src-shared/catalog';
import type { AnyCall } from '../../src-shared/wire';
import { addAccount, editAccount, listAccounts } from './accounts';
import { editRefueling, listRefuelings } from './car-fuel';
import { addCategory, categoryTree, editCategory } from './categories';
import type { CallContext } from './context';
import { addTransfer, lastTransactions, listTemplates } from './transactions';

type Handlers = { [N in OperationName]: (ctx: CallContext, params: ParamsOf<N>) => ResultOf<N> };

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

export function runOperation(call: AnyCall, ctx: CallContext): ResultOf<OperationName> {
  const handler = HANDLERS[call.operation] as (ctx: CallContext, params: unknown) => ResultOf<OperationName>;
  return handler(ctx, call.params);
}

export type { CallContext } from './context';
