// @vitest-environment happy-dom
/**
 * An empty outbox says "Everything is synced" only of a copy that has synced: a copy never connected (or working
 * offline from the start) has sent nothing, and says that nothing is waiting and that it has not synced yet.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../src-renderer/src/i18n';
import { useStatusStore } from '../../src-renderer/src/stores/status';
import OutboxView from '../../src-renderer/src/views/OutboxView.vue';
import { readBothLanguages } from '../support/messages';
import { standIn, status } from './stand-in';

beforeAll(readBothLanguages);

async function emptyOutbox(lastSyncAt: string | null, lang: 'en' | 'cs'): Promise<string> {
  const pinia = createPinia();
  setActivePinia(pinia);
  i18n.global.locale.value = lang;
  const empty = async () => [];
  standIn({
    getStatus: async () => status({ lastSyncAt }),
    listOutbox: empty,
    listAccounts: empty,
    getCategoryTree: empty,
    listCars: empty,
  });
  await useStatusStore().refresh();
  const w = mount(OutboxView, { global: { plugins: [pinia, i18n], stubs: { RouterLink: true } } });
  await flushPromises();
  const text = w.get('.empty-state').text();
  w.unmount();
  return text;
}

describe('an empty outbox', () => {
  it('of a copy that has synced: everything is synced', async () => {
    expect(await emptyOutbox('2026-11-27T10:00:00', 'en')).toContain('Everything is synced');
    expect(await emptyOutbox('2026-11-27T10:00:00', 'cs')).toContain('Vše je synchronizováno');
  });

  it('of a copy never synced: nothing waiting, and not synced yet', async () => {
    for (const lang of ['en', 'cs'] as const) {
      const text = await emptyOutbox(null, lang);
      expect(text).not.toMatch(/Everything is synced|Vše je synchronizováno/);
      expect(text).toContain(lang === 'en' ? 'has not synced with the service yet' : 'se se službou ještě nesynchronizovala');
    }
  });
});
