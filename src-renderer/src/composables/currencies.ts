/** Currency choices for pickers: the common ones first, then the rest of ISO 4217 by code. */
import { KNOWN_CURRENCIES } from '../../../src-shared/money';

const FIRST = [203, 978, 840, 826, 985];

export const CURRENCY_OPTIONS: readonly { code: number; label: string }[] = [...KNOWN_CURRENCIES]
  .sort((a, b) => (FIRST.indexOf(a.numeric) + 1 || 99) - (FIRST.indexOf(b.numeric) + 1 || 99) || a.code.localeCompare(b.code))
  .map((c) => ({ code: c.numeric, label: c.code }));
