/** The user's preferences, kept in the local copy: language, theme, code labels, the pump form's last car and currency, the binding. */
import { DEFAULT_PREFERENCES, type InputOf, type Preferences } from '../../../src-shared/app-api';
import type { CoreServices, Handlers } from './core-parts';

/** The preferences as the user set them, the defaults for the others. */
export function preferences(core: Pick<CoreServices, 'store'>): Preferences {
  return { ...DEFAULT_PREFERENCES, ...core.store.settings.get('preferences') };
}

export function preferenceHandlers(core: CoreServices): Handlers<'getPreferences' | 'setPreferences'> {
  /** Sets what the input gives; a binding goes to the stored connection and is kept for the next one. */
  async function setPreferences(input: InputOf<'setPreferences'>): Promise<Preferences> {
    const { store, link } = core;
    const { binding, ...rest } = input;
    const next: Preferences = { ...preferences(core) };
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    store.transaction(() => {
      store.settings.set('preferences', next);
      if (binding) {
        const c = link.connection();
        if (c) store.settings.set('connection', { ...c, binding });
        store.settings.set('preferredBinding', binding);
      }
    });
    return next;
  }

  return {
    getPreferences: async () => preferences(core),
    setPreferences,
  };
}
