// @vitest-environment happy-dom
/**
 * The damaged-copy screen and the backup card as components (@vue/test-utils in happy-dom): the newest safety
 * copy is offered first with its date and reason, every copy is listed, a new copy says what it cannot bring
 * back; the backup card lists the safety copies the core keeps, with their dates; in Czech and English.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import BackupCard from '../../src-renderer/src/components/BackupCard.vue';
import { i18n } from '../../src-renderer/src/i18n';
import DamagedCopyView from '../../src-renderer/src/views/DamagedCopyView.vue';
import type { SafetyCopyInfo } from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';
import { standIn, status } from './stand-in';

beforeAll(readBothLanguages);

const COPIES: SafetyCopyInfo[] = [
  { at: '2026-11-03T07:00:00.000Z', reason: 'daily' },
  { at: '2026-11-02T17:30:00.000Z', reason: 'after-sync' },
  { at: '2026-10-01T09:00:00.000Z', reason: 'before-schema-4' },
];

let pinia: ReturnType<typeof createPinia>;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  i18n.global.locale.value = 'cs';
  document.body.innerHTML = '';
});

const router = () => createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)*', component: { template: '<div />' } }] });
const mountDamaged = (safetyCopies: SafetyCopyInfo[]) =>
  mount(DamagedCopyView, { props: { damaged: { file: '/data/L.sqlite', safetyCopies } }, global: { plugins: [pinia, i18n, router()] } });

describe('the damaged-copy screen', () => {
  it('offers the newest safety copy first, lists every copy, and says what a new copy cannot bring back (English)', async () => {
    i18n.global.locale.value = 'en';
    const { api } = standIn({ recoverLocalCopy: async () => status(), getPreferences: async () => ({}) });
    const w = mountDamaged(COPIES);
    const buttons = w.findAll('button');
    expect(buttons[0]!.attributes('data-testid')).toBe('recover-safety-copy');
    const text = w.text();
    expect(text).toMatch(/The newest sound safety copy is from .*3.*2026.* \(daily\)\. It holds your whole history/);
    expect(w.findAll('[data-testid=safety-copies] dd').map((d) => d.text())).toEqual([
      'daily',
      'after a sync',
      'before an update of the app',
    ]);
    expect(w.find('[data-testid=fresh-copy-loses]').text()).toMatch(
      /last 50 transactions of each account .* car names and marks such as partial fills are gone/,
    );
    expect(text).toMatch(/The connection \(address, login\) is carried over when the damaged file or a safety copy still holds it/);
    await w.find('[data-testid=recover-safety-copy]').trigger('click');
    await flushPromises();
    expect(api.recoverLocalCopy).toHaveBeenCalledWith({ from: 'safety-copy' });
  });

  it('in Czech; without a safety copy, only a new copy is offered, with the same honest warning', () => {
    i18n.global.locale.value = 'cs';
    standIn({});
    const w = mountDamaged([]);
    expect(w.find('[data-testid=recover-safety-copy]').exists()).toBe(false);
    expect(w.text()).toMatch(/Nepoškozená bezpečnostní kopie tohoto souboru neexistuje/);
    expect(w.find('[data-testid=fresh-copy-loses]').text()).toMatch(/posledních 50 transakcí každého účtu/);
    const withCopies = mountDamaged(COPIES);
    expect(withCopies.findAll('[data-testid=safety-copies] dd').map((d) => d.text())).toEqual([
      'denní',
      'po synchronizaci',
      'před aktualizací aplikace',
    ]);
  });
});

describe('the backup card', () => {
  it('lists the safety copies the core keeps, with their dates, or says there is none yet', async () => {
    i18n.global.locale.value = 'en';
    standIn({ listSafetyCopies: async () => COPIES });
    const w = mount(BackupCard, { global: { plugins: [pinia, i18n, router()] } });
    await flushPromises();
    const dates = w.findAll('[data-testid=safety-copies] time').map((t) => t.attributes('datetime'));
    expect(dates).toEqual(COPIES.map((c) => c.at));
    expect(w.findAll('[data-testid=safety-copies] dt')[0]!.text()).toMatch(/2026/);
    standIn({ listSafetyCopies: async () => [] });
    const none = mount(BackupCard, { global: { plugins: [pinia, i18n, router()] } });
    await flushPromises();
    expect(none.find('[data-testid=no-safety-copies]').text()).toBe('No safety copy has been made yet.');
  });
});
