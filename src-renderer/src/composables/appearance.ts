/** Applies the chosen language and theme to the document (and follows the system theme when asked). */
import { onBeforeUnmount, ref, watchEffect } from 'vue';
import { useI18n } from 'vue-i18n';
import { usePreferencesStore } from '../stores/preferences';

export function useAppearance(): void {
  const prefs = usePreferencesStore();
  const { locale } = useI18n({ useScope: 'global' });
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const systemDark = ref(media?.matches ?? false);
  const onChange = (e: MediaQueryListEvent) => (systemDark.value = e.matches);
  media?.addEventListener('change', onChange);
  onBeforeUnmount(() => media?.removeEventListener('change', onChange));

  watchEffect(() => {
    locale.value = prefs.language;
    document.documentElement.lang = prefs.language;
    const theme = prefs.theme === 'system' ? (systemDark.value ? 'dark' : 'light') : prefs.theme;
    document.documentElement.dataset.theme = theme;
  });
}
