/** The language the screens speak now, for Intl formatting. */
import { computed, type ComputedRef } from 'vue';
import type { Locale } from '../format/amount';
import { usePreferencesStore } from '../stores/preferences';

export function useLocale(): ComputedRef<Locale> {
  const prefs = usePreferencesStore();
  return computed(() => prefs.language);
}
