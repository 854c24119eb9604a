/** Language, theme, code labels and the remembered car and currency of the pump form. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { InputOf, Language, Preferences, Theme } from '../../../src-shared/app-api';
import { api } from '../api';
import { createLoader, write } from './loader';
import { useStatusStore } from './status';

/** Czech when the system prefers it (the service's users mostly do), else English. */
export function systemLanguage(languages: readonly string[]): Language {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'cs' || base === 'sk') return 'cs';
    if (base === 'en') return 'en';
  }
  return 'en';
}

const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];

export const usePreferencesStore = defineStore('preferences', () => {
  const prefs = ref<Preferences | null>(null);
  /** A language picked on the first-run screen, before any preference is stored. */
  const firstRunLanguage = ref<Language | null>(null);
  const loader = createLoader(
    () => api().getPreferences(),
    (p) => (prefs.value = p),
  );
  const status = useStatusStore();

  /**
   * Until the first run is done the app speaks the system's language (or the one just picked); after it,
   * the stored preference rules. Finishing the first run stores what was shown, and the language shown is held
   * from the moment the user connects until it is stored: the core says it is set up before that, and the stored
   * preferences would meanwhile speak their default (Czech) to an English user.
   */
  const language = computed<Language>(() => {
    if (firstRunLanguage.value) return firstRunLanguage.value;
    if (status.needsSetup || !prefs.value) return systemLanguage(browserLanguages());
    return prefs.value.language;
  });
  const theme = computed<Theme>(() => prefs.value?.theme ?? 'system');

  async function save(patch: InputOf<'setPreferences'>): Promise<Preferences> {
    prefs.value = await write(() => api().setPreferences(patch));
    return prefs.value;
  }

  async function setLanguage(next: Language): Promise<void> {
    if (status.needsSetup) firstRunLanguage.value = next;
    else await save({ language: next });
  }

  /** Keeps the first-run screen's language through connecting (or choosing to work offline), until it is stored. */
  function holdFirstRunLanguage(shown: Language): void {
    firstRunLanguage.value = shown;
  }

  /** Stores the language the first-run screen showed, once the user has connected or chosen to work offline. */
  async function rememberFirstRunLanguage(shown: Language): Promise<void> {
    if (prefs.value?.language !== shown) await save({ language: shown });
    firstRunLanguage.value = null;
  }

  return {
    prefs,
    language,
    theme,
    loading: loader.loading,
    error: loader.error,
    load: loader.load,
    save,
    setLanguage,
    holdFirstRunLanguage,
    rememberFirstRunLanguage,
  };
});
