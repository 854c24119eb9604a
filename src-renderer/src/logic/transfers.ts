/** What a template fills in when a transfer starts from it. */
import type { AccountView, TemplateView, TransferInput } from '../../../src-shared/app-api';
import { absAmount, signOf } from '../format/amount';
import { canWriteTo } from './accounts';

/**
 * A template is one side of a booking: an expense (negative amount) leaves its account, so that account
 * is the source; income (positive) arrives on it, so it is the target. The account is left out when it
 * is unknown or read only.
 */
export function transferFromTemplate(tpl: TemplateView, accounts: ReadonlyMap<number, AccountView>): Partial<TransferInput> {
  const side = signOf(tpl.amount) > 0 ? 'targetId' : 'sourceId';
  const account = accounts.get(tpl.accountId);
  return {
    ...(account && canWriteTo(account) ? { [side]: tpl.accountId } : {}),
    amount: absAmount(tpl.amount),
    categoryId: tpl.categoryId,
    description: tpl.description,
  };
}
