/** TransactionListLast50(_2), AddTranferToOtherAccount, DefineTransactionList(2). */
import type { ApiTransaction2, ParamsOf, ResultOf } from '../../src-shared/catalog';
import { currencyLabel } from '../../src-shared/money';
import { RuleError } from '../errors';
import { MAX_MINOR, TRANSACTION_TYPE, amountToMinor, awaited, type AccountRow, type Flow, type TransactionRow } from '../store';
import type { CallContext } from './context';
import { apiDefineTransaction, apiKeptTransaction, apiTransaction } from './records';
import * as rule from './rules';

/**
 * The records of a kept (frozen) list of rows, by the list's identity: asked again while no transaction
 * was booked on the account, the same records, each of them unchanging, whose XML the codec keeps. The
 * list's XML is not kept whole: a list changes with every booking on its account, and its 15 KB of text
 * outlived the young generation (promoted, then collected with the old) to be used again only when the
 * answer kept of the very same request was gone without a booking; made of its records' kept XML again,
 * it costs 50 joins.
 */
const listRecords = new WeakMap<readonly TransactionRow[], { currency: number; records: ApiTransaction2[] }>();

/** The last 50 transactions of an account the caller holds any permission on, newest first. */
export function* lastTransactions(ctx: CallContext, p: ParamsOf<'TransactionListLast50_2'>): Flow<ApiTransaction2[]> {
  const account = yield* rule.visibleAccount(ctx.store, ctx.user.id, p.AccountId, 'AccountId');
  const rows = yield* awaited(ctx.store.transactions.last(account.id));
  if (!Object.isFrozen(rows)) return rows.map((row) => apiTransaction(row, account.currency));
  const known = listRecords.get(rows);
  if (known !== undefined && known.currency === account.currency) return known.records;
  // A frozen list is a kept one, every row of it kept (frozen) too (kept-rows.ts). Frozen in turn: every
  // request for the list gets this very array; the handler's type is the catalog's plain array.
  const records = Object.freeze(rows.map((row) => apiKeptTransaction(row, account.currency))) as ApiTransaction2[];
  listRecords.set(rows, { currency: account.currency, records });
  return records;
}

/** An account a transfer may touch: writable, active and unlocked. */
function* transferAccount(ctx: CallContext, id: number, param: string): Flow<AccountRow> {
  const account = yield* rule.writableAccount(ctx.store, ctx.user.id, id, param);
  if (account.is_active !== 1) throw new RuleError(`${param}: account ${id} is not active.`);
  if (account.locked === 1) throw new RuleError(`${param}: account ${id} is locked.`);
  return account;
}

/**
 * Moves `Amount` (> 0) from the source to the target account: Transaction1 on the source with -Amount,
 * Transaction2 on the target with +Amount, both of type 3 with the same date, description and category.
 * Every check runs inside the write, after both accounts are held against other bookings (in the
 * order of their ids), so nothing another request or process changes in between can slip through, and
 * either both transactions are written or neither is.
 */
export function* addTransfer(ctx: CallContext, p: ParamsOf<'AddTranferToOtherAccount'>): Flow<ResultOf<'AddTranferToOtherAccount'>> {
  const { store, user } = ctx;
  if (!(p.Amount > 0) || !Number.isFinite(p.Amount)) throw new RuleError('Amount must be a number greater than zero.');
  if (p.Id_SourceAccount === p.Id_TargetAccount) {
    throw new RuleError('Id_TargetAccount must be another account than Id_SourceAccount.');
  }
  const description = rule.description(p.Description, 'Description');
  yield* awaited(store.accounts.holdForBooking([p.Id_SourceAccount, p.Id_TargetAccount], user.id));
  const source = yield* transferAccount(ctx, p.Id_SourceAccount, 'Id_SourceAccount');
  const target = yield* transferAccount(ctx, p.Id_TargetAccount, 'Id_TargetAccount');
  if (source.currency !== target.currency) {
    throw new RuleError(
      `Id_TargetAccount: account ${target.id} is in ${currencyLabel(target.currency)}, ` +
        `the source account in ${currencyLabel(source.currency)}; a transfer needs one currency.`,
    );
  }
  const minor = amountToMinor(p.Amount, source.currency, 'Amount');
  if (source.balance_minor - minor < -MAX_MINOR || target.balance_minor + minor > MAX_MINOR) {
    throw new RuleError('Amount would take a balance beyond what the service keeps (15 significant digits).');
  }
  const categoryId = yield* rule.optionalCategory(store, user.id, p.Id_Category, 'Id_Category');
  const common = {
    created_by: user.id,
    payment_date: p.PaymentDate,
    type: TRANSACTION_TYPE.transfer,
    description,
    category_id: categoryId,
  };
  const [first, second] = yield* awaited(
    store.transactions.insertTransfer(
      { ...common, account_id: source.id, user_id: source.owner_id, amount_minor: -minor },
      { ...common, account_id: target.id, user_id: target.owner_id, amount_minor: minor },
    ),
  );
  return { Transaction1: apiTransaction(first, source.currency), Transaction2: apiTransaction(second, target.currency) };
}

/** The caller's templates, by Ord then Id. */
export function* listTemplates(ctx: CallContext): Flow<ResultOf<'DefineTransactionList2'>> {
  return (yield* awaited(ctx.store.templates.listFor(ctx.user.id))).map(apiDefineTransaction);
}

/** A transaction booked directly on an account (income or expense): the admin tools and demo data use it. */
export interface NewBooking {
  accountId: number;
  /** Signed: negative lowers the balance. Exact to the currency's digits. */
  amount: number;
  /** Wall-clock `YYYY-MM-DDTHH:mm:ss`. */
  paymentDate: string;
  /** 1 income or 2 expense; by default by the sign of the amount. */
  type?: number;
  description?: string;
  /** 0 or absent: none. */
  categoryId?: number;
}

export function* bookTransaction(ctx: CallContext, b: NewBooking): Flow<number> {
  const { store, user } = ctx;
  const type = b.type ?? (b.amount < 0 ? TRANSACTION_TYPE.expense : TRANSACTION_TYPE.income);
  if (type === TRANSACTION_TYPE.transfer) throw new RuleError('type: a transfer is booked with AddTranferToOtherAccount.');
  rule.transactionType(type, 'type');
  const description = rule.description(b.description ?? '', 'description');
  const paymentDate = rule.wallDateTime(b.paymentDate, 'paymentDate');
  yield* awaited(store.accounts.holdForBooking([b.accountId], user.id));
  const account = yield* rule.writableAccount(store, user.id, b.accountId, 'accountId');
  const minor = amountToMinor(b.amount, account.currency, 'amount');
  if (Math.abs(account.balance_minor + minor) > MAX_MINOR) {
    throw new RuleError('amount would take the balance beyond what the service keeps (15 significant digits).');
  }
  const categoryId = yield* rule.optionalCategory(store, user.id, b.categoryId ?? 0, 'categoryId');
  const row = yield* awaited(
    store.transactions.insert({
      account_id: account.id,
      user_id: account.owner_id,
      created_by: user.id,
      payment_date: paymentDate,
      type,
      amount_minor: minor,
      description,
      category_id: categoryId,
    }),
  );
  return row.id;
}

/** A template of the caller's, on an account they may write to. */
export interface NewTemplate {
  accountId: number;
  /** 1 income, 2 expense, 3 transfer. */
  type: number;
  /** Signed, like a transaction's. */
  amount: number;
  description?: string;
  categoryId?: number;
  ord?: number;
}

export function* createTemplate(ctx: CallContext, t: NewTemplate): Flow<number> {
  const { store, user } = ctx;
  const type = rule.transactionType(t.type, 'type');
  const description = rule.description(t.description ?? '', 'description');
  const account = yield* rule.writableAccount(store, user.id, t.accountId, 'accountId');
  const amountMinor = amountToMinor(t.amount, account.currency, 'amount');
  const categoryId = yield* rule.optionalCategory(store, user.id, t.categoryId ?? 0, 'categoryId');
  return yield* awaited(
    store.templates.insert({
      user_id: user.id,
      created_by: user.id,
      account_id: account.id,
      type,
      amount_minor: amountMinor,
      description,
      category_id: categoryId,
      ord: t.ord ?? 0,
    }),
  );
}
