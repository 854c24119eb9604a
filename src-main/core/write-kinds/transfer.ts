/**
 * Transfers between two accounts (AddTranferToOtherAccount): two transactions, one on each account.
 * After an unknown outcome the transfer is looked for in both accounts' last-50 lists; a backdated
 * one that neither list can show is decided by the two balances, or left to the user.
 */
import { AppError, RECORD_TABLES, type TransferProblem, type WriteInputOf } from '../../../src-shared/app-api';
import type { ApiTransaction2 } from '../../../src-shared/catalog';
import {
  add,
  compare,
  currencyDigits,
  currencyLabel,
  decimalPlaces,
  formatDecimal,
  negate,
  parseDecimal,
  type Decimal,
} from '../../../src-shared/money';
import { TRANSACTION, TRANSFER } from '../../../src-shared/records/transaction';
import { transferTypeOf } from '../outbox/learned';
import type { ViewAccount, ViewState } from '../outbox/view-state';
import type { ListedTransaction } from '../soap-client';
import { accountFromApi, decimalText, fromWire, transactionRow } from '../store/rows';
import type { TransactionWindow } from '../sync/snapshot';
import { canWrite } from './account';
import { EffectUndecidable, type Effect, type PushContext, type WriteKind } from './kind';
import { mayBeUnlisted, sameFields } from './listing';
import { paramsOf } from './params';

type TransferInput = WriteInputOf<'transfer'>;

/** What one window of transactions held before a transfer was sent. */
interface WindowProbe {
  /** Ids listed, or null when the service lists transactions without ids. */
  ids: number[] | null;
  /** How many listed transactions looked like this transfer (for services without ids). */
  matching: number;
}
/**
 * Before a transfer that both accounts' lists may not show (see mayBeUnlisted): the two balances as
 * the service reported them just before sending, as decimal text.
 */
interface BalancesProbe {
  source: string;
  target: string;
}
interface TransferProbe {
  source: WindowProbe;
  target: WindowProbe;
  balances?: BalancesProbe;
}

const abs = (d: Decimal): Decimal => (d.units < 0n ? negate(d) : d);
/** A listed transaction's or an account's amount as decimal text. */
const amountOf = (r: { Id: number | null; Amount: number }, record: 'transaction' | 'account'): string =>
  decimalText(r.Amount, record, r.Id, 'Amount');

/** The fields a transfer is told by, as its transactions hold them (the transfer's fields are the transaction's). */
const TOLD_BY = TRANSFER.matched as readonly (keyof typeof TRANSACTION.fields & string)[];

/** Whether a listed transaction looks like one side of the transfer: the fields the transfer is told by, the amount without its sign. */
export function matchesTransfer(t: ListedTransaction, input: TransferInput): boolean {
  const listed: Record<string, unknown> = fromWire(TRANSACTION, TOLD_BY, t);
  if (typeof listed.amount === 'string') listed.amount = formatDecimal(abs(parseDecimal(listed.amount)!));
  return sameFields(TRANSFER, listed, input);
}

function windowProbe(w: TransactionWindow, input: TransferInput): WindowProbe {
  return { ids: w.hasIds ? w.items.map((t) => t.Id!) : null, matching: w.items.filter((t) => matchesTransfer(t, input)).length };
}

/** New transactions of the window that look like the transfer (and are no one else's effect we know of). */
function newMatches(w: TransactionWindow, probe: WindowProbe, input: TransferInput, own: Set<number>): ListedTransaction[] {
  const matches = w.items.filter((t) => matchesTransfer(t, input));
  if (probe.ids === null || !w.hasIds) return matches.length > probe.matching ? matches.slice(0, 1) : [];
  const before = new Set(probe.ids);
  return matches.filter((t) => t.Id !== null && !before.has(t.Id) && !own.has(t.Id)).slice(0, 1);
}

function transferMayBeUnlisted(source: TransactionWindow, target: TransactionWindow, date: string): boolean {
  const dates = (w: TransactionWindow) => w.items.map((t) => t.PaymentDate);
  return mayBeUnlisted(dates(source), date) && mayBeUnlisted(dates(target), date);
}

/**
 * A transfer neither account's list can show: it happened if the balances moved by its amount, one
 * down and one up, since just before it was sent; it did not if neither moved. Anything else (other
 * changes meanwhile, no balances kept) cannot be told apart.
 */
async function transferByBalances(i: TransferInput, before: BalancesProbe | undefined, ctx: PushContext): Promise<Effect | null> {
  const accounts = await ctx.snapshot.accounts();
  const [s, t] = [accounts.get(i.sourceId), accounts.get(i.targetId)];
  if (before && s && t) {
    const moved = (now: string, then: string) => add(parseDecimal(now)!, negate(parseDecimal(then)!));
    const ds = moved(amountOf(s, 'account'), before.source);
    const dt = moved(amountOf(t, 'account'), before.target);
    if (ds.units === 0n && dt.units === 0n) return null;
    if (compare(abs(ds), parseDecimal(i.amount)!) === 0 && compare(dt, negate(ds)) === 0) {
      return { kind: 'transactions', transactions: [], balances: [...accounts.values()] };
    }
  }
  throw new EffectUndecidable(
    'Whether this transfer reached the service cannot be told: it is dated before the last 50 transactions the service lists for both accounts, ' +
      'and their balances do not show it either. If the service has it, discard this write; if not, retry it.',
  );
}

interface Problem {
  code: TransferProblem;
  accountId: number | null;
  /** The refusal, said of the field it is about. */
  error: AppError;
}

/** Everything that keeps a transfer from going through, as the screens show it before it is made. */
export function transferProblems(i: Pick<TransferInput, 'sourceId' | 'targetId' | 'amount'>, state: ViewState): Problem[] {
  const problems: Problem[] = [];
  const problem = (code: TransferProblem, accountId: number | null, field: string, error: AppError) =>
    problems.push({ code, accountId, error: error.withField(field) });
  if (i.sourceId === i.targetId) problem('same-account', i.sourceId, 'targetId', new AppError('transferSameAccount'));
  const sides: [ViewAccount | undefined, number, 'sourceId' | 'targetId', 'source' | 'target'][] = [
    [state.accounts.get(i.sourceId), i.sourceId, 'sourceId', 'source'],
    [state.accounts.get(i.targetId), i.targetId, 'targetId', 'target'],
  ];
  for (const [account, id, field, role] of sides) {
    if (!account) {
      problem('unknown-account', id, field, new AppError('transferAccountMissing', { role, id }));
      continue;
    }
    const named = { role, name: account.name };
    if (!canWrite(account.permission)) problem('read-only', id, field, new AppError('transferAccountReadOnly', named));
    if (!account.isActive) problem('inactive', id, field, new AppError('transferAccountInactive', named));
    if (account.locked) problem('locked', id, field, new AppError('transferAccountLocked', named));
  }
  const source = sides[0]![0];
  const target = sides[1]![0];
  if (source && target && source.currency !== target.currency) {
    problem(
      'currency-mismatch',
      target.id,
      'targetId',
      new AppError('transferCurrencies', { source: currencyLabel(source.currency), target: currencyLabel(target.currency) }),
    );
  }
  const amount = parseDecimal(i.amount);
  if (source && amount) {
    const digits = currencyDigits(source.currency);
    if (decimalPlaces(amount) > digits) {
      problem(
        'too-many-decimals',
        source.id,
        'amount',
        new AppError('amountDecimals', { currency: currencyLabel(source.currency), max: digits }),
      );
    }
  }
  return problems;
}

export const transfer: WriteKind<'transfer'> = {
  label: 'transfer',
  touches: RECORD_TABLES.transactions,
  creates: ['transaction', 'transaction'],
  references: [
    ['sourceId', 'account'],
    ['targetId', 'account'],
    ['categoryId', 'category'],
  ],
  edit: null,
  // Both accounts: a balance probe and the look in their lists assume no other write of ours moves them meanwhile.
  keys: (entry) => [`account:${entry.input.sourceId}`, `account:${entry.input.targetId}`],
  // Transfers add to balances: their order does not change the result (their dates are their own).
  commutes: true,
  check(raw, ctx) {
    const input = {
      ...raw,
      sourceId: ctx.resolve(raw.sourceId),
      targetId: ctx.resolve(raw.targetId),
      categoryId: ctx.resolve(raw.categoryId),
    };
    const problem = transferProblems(input, ctx.state)[0];
    if (problem) throw problem.error;
    if (input.categoryId !== 0 && !ctx.state.categories.has(input.categoryId)) {
      throw new AppError('categoryMissing', { id: raw.categoryId }, 'categoryId');
    }
    return { input, base: null };
  },
  lay(state, entry) {
    const i = entry.input;
    const amount = parseDecimal(i.amount)!;
    const sourceNegative = state.learned.sourceNegative ?? true;
    const sides: [number, Decimal, number][] = [
      [i.sourceId, sourceNegative ? negate(amount) : amount, entry.createdIds[0]!],
      [i.targetId, sourceNegative ? amount : negate(amount), entry.createdIds[1]!],
    ];
    for (const [accountId, signed, id] of sides) {
      state.bookPending(
        {
          key: `pending:${id}`,
          id,
          entryId: entry.id,
          accountId,
          paymentDate: i.paymentDate,
          type: transferTypeOf(state.learned),
          amount: formatDecimal(signed),
          description: i.description,
          categoryId: i.categoryId,
          userId: 0,
          userCreatedId: 0,
        },
        signed,
      );
    }
  },
  async prepare(entry, ctx) {
    const i = entry.input;
    const [source, target] = await Promise.all([ctx.snapshot.transactions(i.sourceId), ctx.snapshot.transactions(i.targetId)]);
    let balances: BalancesProbe | undefined;
    if (transferMayBeUnlisted(source, target, i.paymentDate)) {
      const accounts = await ctx.snapshot.freshAccounts();
      const [s, t] = [accounts.get(i.sourceId), accounts.get(i.targetId)];
      if (s && t) balances = { source: amountOf(s, 'account'), target: amountOf(t, 'account') };
    }
    const probe: TransferProbe = { source: windowProbe(source, i), target: windowProbe(target, i), ...(balances ? { balances } : {}) };
    return {
      action: 'send',
      call: { operation: 'AddTranferToOtherAccount', params: paramsOf(TRANSFER, TRANSFER.sent, i) },
      probe: probe as unknown as Record<string, unknown>,
    };
  },
  async send(_entry, call, _probe, ctx) {
    const pair = await ctx.client.call('AddTranferToOtherAccount', call.params as never);
    return { kind: 'transactions', transactions: [pair.Transaction1, pair.Transaction2], balances: null };
  },
  probeFromCopy(entry, store) {
    // Without ids (a service that lists none) the copy's history cannot say which transactions are new.
    const [source, target] = [store.transactionIds(entry.input.sourceId), store.transactionIds(entry.input.targetId)];
    if (!source || !target) return null;
    const probe: TransferProbe = { source: { ids: source, matching: 0 }, target: { ids: target, matching: 0 } };
    return probe as unknown as Record<string, unknown>;
  },
  async findEffect(entry, ctx) {
    const probe = entry.probe as TransferProbe | null;
    if (!probe || !('source' in probe)) return null;
    const i = entry.input;
    const own = ctx.outbox.ownIds('transaction');
    const [source, target] = await Promise.all([ctx.snapshot.transactions(i.sourceId), ctx.snapshot.transactions(i.targetId)]);
    const found = [...newMatches(source, probe.source, i, own), ...newMatches(target, probe.target, i, own)];
    if (found.length === 0) {
      // Both sides are written together: one list that would show the transfer proves it did not happen.
      return transferMayBeUnlisted(source, target, i.paymentDate) ? transferByBalances(i, probe.balances, ctx) : null;
    }
    const balances = [...(await ctx.snapshot.accounts()).values()];
    const withIds = found.filter((t): t is ApiTransaction2 => t.Id !== null);
    return { kind: 'transactions', transactions: withIds, balances };
  },
  apply(entry, effect, ctx) {
    if (effect.kind !== 'transactions') return;
    // A service whose lists carry no ids lists these under keys of their content: kept from the
    // answer as well, each would show twice. The pull that ends the sync brings them.
    const listedWithIds = !ctx.client.lacks('TransactionListLast50_2');
    for (const t of effect.transactions) {
      ctx.outbox.markOwn('transaction', t.Id);
      if (listedWithIds) ctx.store.upsertTransactions([transactionRow(t.Id_Account, t)]);
    }
    if (effect.balances) ctx.store.setBalances(effect.balances.map(accountFromApi));
    else for (const t of effect.transactions) ctx.store.addToBalance(t.Id_Account, amountOf(t, 'transaction'));
    const input = entry.input;
    for (const t of effect.transactions) {
      const side = t.Id_Account === input.sourceId ? 0 : t.Id_Account === input.targetId ? 1 : -1;
      if (side >= 0) ctx.outbox.replaceTempId('transaction', entry.createdIds[side]!, t.Id);
      if (side === 0) ctx.learned.sourceNegative = t.Amount < 0;
      ctx.learned.transferType = t.Type;
    }
  },
};
