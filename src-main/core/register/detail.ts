/**
 * One transaction as the detail of a register row shows it: every field, the category's path, the
 * other side of a transfer, whether the service has it or it waits in the outbox (with the entry's
 * status and message), when this copy last saw it change, and the account's balance right after it.
 */
import { AppError, type TransactionDetail } from '../../../src-shared/app-api';
import type { CoreParts } from '../app/core-parts';
import { outboxView } from '../app/read-views';
import { ancestry } from '../insights/category-tree';
import { newestFirst } from './keyset';
import { balanceAfter, registerRows, registerScope, type Entry } from './register';

export function transactionDetail(parts: CoreParts, key: string): TransactionDetail {
  let entry: Entry | null = null;
  let changedAt: string | null = null;
  for (const list of parts.view.state().pendingTransactions.values()) {
    const t = list.find((p) => p.key === key);
    if (t) entry = { paymentDate: t.paymentDate, key: t.key, id: t.id, outboxId: t.entryId, row: t, pending: t };
  }
  if (!entry) {
    const stored = parts.store.transactions.byKey(key);
    if (stored) {
      const { changedAt: at, ...row } = stored;
      changedAt = at;
      entry = { paymentDate: row.paymentDate, key: row.key, id: row.id, outboxId: null, row, pending: null };
    }
  }
  if (!entry) throw new AppError('transactionGone', {}, 'key');

  // The balance is that of the row's own account; an account the service no longer lists has none to show.
  const account = parts.view.account(entry.row.accountId);
  if (!account) throw new AppError('accountNotInCopy', { id: entry.row.accountId }, 'key');
  const scope = registerScope(parts, account.id, undefined);
  const pending = scope.accounts
    .flatMap((a) => parts.view.pendingTransactions(a.id))
    .map((t): Entry => ({ paymentDate: t.paymentDate, key: t.key, id: t.id, outboxId: t.entryId, row: t, pending: t }));
  const [row] = registerRows(parts, [entry], balanceAfter(parts, scope, entry, pending.sort(newestFirst)));
  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const outbox = entry.outboxId === null ? null : (outboxView(parts.outbox.all()).find((e) => e.id === entry.outboxId) ?? null);
  return {
    ...row!,
    userId: entry.row.userId,
    userCreatedId: entry.row.userCreatedId,
    currency: account.currency,
    categoryPath: ancestry(categories, entry.row.categoryId)
      .map((c) => c.name)
      .reverse(),
    state: entry.pending ? 'pending' : 'synced',
    outbox: outbox && {
      id: outbox.id,
      status: outbox.status,
      message: outbox.message,
      createdAt: outbox.createdAt,
      attempts: outbox.attempts,
    },
    changedAt,
  };
}
