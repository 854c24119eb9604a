/** Applies the chosen language and theme to the document (and follows the system theme when asked). */
import { onBeforeUnmount, ref, watchEffect } from 'vue';
import { showLanguage } from '../i18n';
import { usePreferencesStore } from '../stores/preferences';

export function useAppearance(): void {
  const prefs = usePreferencesStore();
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const systemDark = ref(media?.matches ?? false);
  const onChange = (e: MediaQueryListEvent) => (systemDark.value = e.matches);
  media?.addEventListener('change', onChange);
  onBeforeUnmount(() => media?.removeEventListener('change', onChange));

  watchEffect(() => {
    const language = prefs.language;
    // At opening its messages were read before the mount (main.ts), so it is set at once. A language whose messages
    // cannot be read (the app's own server gone) leaves the page in the one it shows; the next change tries again.
    showLanguage(language).then(
      () => prefs.language === language && (document.documentElement.lang = language),
      () => undefined,
    );
    const theme = prefs.theme === 'system' ? (systemDark.value ? 'dark' : 'light') : prefs.theme;
    document.documentElement.dataset.theme = theme;
  });
}
