/** Which currency a view across accounts shows when none is asked for. */
import type { ViewAccount } from '../outbox/view-state';

/** The currency most accounts have (on a tie the lowest code); null without accounts. */
export function mostCommonCurrency(accounts: readonly ViewAccount[]): number | null {
  const counts = new Map<number, number>();
  for (const a of accounts) counts.set(a.currency, (counts.get(a.currency) ?? 0) + 1);
  let best: [number, number] | null = null;
  for (const [currency, n] of counts) if (!best || n > best[1] || (n === best[1] && currency < best[0])) best = [currency, n];
  return best?.[0] ?? null;
}
