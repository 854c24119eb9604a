/** Grouping and subtotals of the accounts list (exact decimals, never floats). */
import type { AccountEditInput, AccountView } from '../../../src-shared/app-api';
import { currencyLabel, formatDecimal, parseDecimal, sum, type Decimal } from '../../../src-shared/money';
import { ACCOUNT } from '../../../src-shared/records/account';
import { pick } from '../../../src-shared/records/fields';

export interface CurrencySum {
  currency: number;
  total: string;
  pending: boolean;
}

/** Sums balances per currency, ordered by currency label; `pending` when any summed balance is. */
export function sumByCurrency(accounts: readonly AccountView[]): CurrencySum[] {
  const byCurrency = new Map<number, { values: Decimal[]; pending: boolean }>();
  for (const a of accounts) {
    const entry = byCurrency.get(a.currency) ?? { values: [], pending: false };
    const d = parseDecimal(a.balance);
    if (d) entry.values.push(d);
    entry.pending ||= a.pending;
    byCurrency.set(a.currency, entry);
  }
  return [...byCurrency.entries()]
    .map(([currency, e]) => ({ currency, total: formatDecimal(sum(e.values)), pending: e.pending }))
    .sort((x, y) => currencyLabel(x.currency).localeCompare(currencyLabel(y.currency)));
}

export interface AccountGroup {
  type: number;
  accounts: AccountView[];
  subtotals: CurrencySum[];
}

/**
 * Accounts grouped by type code (ascending), keeping the service's order (Ord, then Id) inside a group,
 * each group with its subtotals per currency, as Money Manager Ex groups bank, card and cash accounts.
 */
export function groupAccounts(accounts: readonly AccountView[]): AccountGroup[] {
  const groups = new Map<number, AccountView[]>();
  for (const a of accounts) groups.set(a.type, [...(groups.get(a.type) ?? []), a]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([type, list]) => ({ type, accounts: list, subtotals: sumByCurrency(list) }));
}

/** Accounts the user may pick for a write: everything but read-only ones (permission 1). */
export const canWriteTo = (a: AccountView): boolean => a.permission !== 1;

/** The fields of EditAccount as an account shows them now, its local fields included (the currency cannot be edited). */
export function editInputOf(a: AccountView): AccountEditInput {
  return { id: a.id, ...pick(a, ACCOUNT.edited), ...pick(a, ACCOUNT.local) };
}
