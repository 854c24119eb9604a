/**
 * Display labels of codes the service sends as numbers. The user's own label wins; else the built-in
 * label of our service's codes in the current language; an unknown code shows as #<code>.
 */
import { useI18n } from 'vue-i18n';
import { currencyLabel } from '../../../src-shared/money';
import { usePreferencesStore } from '../stores/preferences';

/** Codes that have a built-in label (service-decisions.md). */
export const KNOWN_ACCOUNT_TYPES = [1, 2, 3, 4, 5, 6] as const;
export const KNOWN_TRANSACTION_TYPES = [1, 2, 3] as const;

export function codeLabel(code: number, custom: Record<string, string> | undefined, builtIn: (code: number) => string | null): string {
  const own = custom?.[String(code)]?.trim();
  if (own) return own;
  return builtIn(code) ?? `#${code}`;
}

export function useLabels() {
  const { t, te } = useI18n();
  const prefs = usePreferencesStore();
  const builtIn = (group: 'accountType' | 'transactionType') => (code: number) => {
    const key = `codes.${group}.${code}`;
    return te(key) ? t(key) : null;
  };
  return {
    accountType: (code: number) => codeLabel(code, prefs.prefs?.accountTypeLabels, builtIn('accountType')),
    transactionType: (code: number) => codeLabel(code, prefs.prefs?.transactionTypeLabels, builtIn('transactionType')),
    builtInAccountType: builtIn('accountType'),
    builtInTransactionType: builtIn('transactionType'),
    currency: currencyLabel,
  };
}
