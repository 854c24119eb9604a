/**
 * What a read's answer shows and what a write changes, in the same terms, so that a write drops exactly
 * the cached answers it makes stale (see response-cache.ts). One entry per operation: the compiler checks
 * that every read and every write of the catalog says what it depends on or touches.
 *
 * The things, each a short string:
 * - `accountsOf(user)`: which accounts a user holds (AddAccount adds one; sharing is the admin's, whose
 *   commits drop everything anyway);
 * - `account(id)`: an account's row as the lists show it (name, flags, order, balance);
 * - `transactions(id)`: the transactions of an account;
 * - `cars(user)`: the refuelings of a user's cars (a refueling edited may move from one car to another);
 * - `templates(user)`: a user's templates (only the admin adds them).
 *
 * An account list shows the user's set of accounts and the row of each: a transfer, which changes the
 * balances of both its accounts, so drops the account list of every user holding a permission on either
 * (shared accounts included), and their transaction lists, and nothing else.
 */
import type { OperationName, OPERATIONS, ResultOf } from '../../src-shared/catalog';
import type { AnyCall, CallOf } from '../../src-shared/wire';
import type { UserRow } from '../store';

export const thing = {
  accountsOf: (userId: number) => `u${userId}`,
  account: (accountId: number) => `a${accountId}`,
  transactions: (accountId: number) => `t${accountId}`,
  cars: (userId: number) => `c${userId}`,
  templates: (userId: number) => `d${userId}`,
};

type ReadName = { [N in OperationName]: (typeof OPERATIONS)[N]['access'] extends 'read' ? N : never }[OperationName];
type WriteName = Exclude<OperationName, ReadName>;

/** What the answer of a read shows; null: never cached. */
type ReadDependencies = {
  [N in ReadName]: ((call: CallOf<N>, user: UserRow, result: ResultOf<N>) => string[]) | null;
};

const accountList = (_call: unknown, user: UserRow, result: readonly { Id: number }[]) => [
  thing.accountsOf(user.id),
  ...result.map((a) => thing.account(a.Id)),
];
const transactionList = (call: CallOf<'TransactionListLast50_2'> | CallOf<'TransactionListLast50'>) => [
  thing.transactions(call.params.AccountId),
];
const templateList = (_call: unknown, user: UserRow) => [thing.templates(user.id)];

const READS: ReadDependencies = {
  AccountList2: accountList,
  AccountListWithAmount2: accountList,
  AccountListWithAmount: accountList,
  TransactionListLast50_2: transactionList,
  TransactionListLast50: transactionList,
  DefineTransactionList: templateList,
  DefineTransactionList2: templateList,
  CarFuelList: (_call, user) => [thing.cars(user.id)],
  // Its favourites follow the clock (the last 90 days): never cached.
  CategoryTree: null,
};

/**
 * The account a cacheable read's answer is about, for its stamp where answers carry one
 * (ServiceStore.answerStamp): a transaction list's; 0 for the others, which show the user's accounts or
 * other things of theirs.
 */
export function stampScope(call: AnyCall): number {
  return call.operation === 'TransactionListLast50_2' || call.operation === 'TransactionListLast50' ? call.params.AccountId : 0;
}

/** What a write may change, from the call alone (nothing is read for it: on PostgreSQL that would wait). */
type WriteTouches = { [N in WriteName]: (call: CallOf<N>, user: UserRow) => string[] };

const WRITES: WriteTouches = {
  AddAccount: (_call, user) => [thing.accountsOf(user.id)],
  EditAccount: (call) => [thing.account(call.params.Id_Account)],
  AddTranferToOtherAccount: ({ params: p }) => [
    thing.account(p.Id_SourceAccount),
    thing.account(p.Id_TargetAccount),
    thing.transactions(p.Id_SourceAccount),
    thing.transactions(p.Id_TargetAccount),
  ],
  // Categories are shown by CategoryTree alone, which is never cached; other answers name them by id.
  AddCategory: () => [],
  EditCategory: () => [],
  // A refueling edited may move from another of the user's cars: every car list of the user goes.
  EditCarFuel: (_call, user) => [thing.cars(user.id)],
};

/** Whether answers of the operation are ever cached. */
export function isCacheable(operation: OperationName): boolean {
  return (READS as Partial<Record<OperationName, unknown>>)[operation] != null;
}

type Untyped = (call: AnyCall, user: UserRow, result: unknown) => string[];

/** What the answer of a cacheable read shows. */
export function dependenciesOf(call: AnyCall, user: UserRow, result: unknown): string[] {
  const of = (READS as Partial<Record<OperationName, Untyped | null>>)[call.operation];
  if (!of) throw new Error(`${call.operation} is not a cacheable read.`);
  return of(call, user, result);
}

/** What a write may change. */
export function touchedBy(call: AnyCall, user: UserRow): string[] {
  const of = (WRITES as Partial<Record<OperationName, (call: AnyCall, user: UserRow) => string[]>>)[call.operation];
  if (!of) throw new Error(`${call.operation} is not a write.`);
  return of(call, user);
}
