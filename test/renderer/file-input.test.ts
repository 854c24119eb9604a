// @vitest-environment happy-dom
/**
 * A file field speaks the app's language, not the browser's: the button and "no file chosen" in Czech or English,
 * the chosen file's name beside it once picked, and back to none when the card clears it.
 */
import { mount } from '@vue/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import FileInput from '../../src-renderer/src/components/FileInput.vue';
import { i18n } from '../../src-renderer/src/i18n';
import { readBothLanguages } from '../support/messages';

beforeAll(readBothLanguages);

function fileField(lang: 'en' | 'cs') {
  i18n.global.locale.value = lang;
  return mount(FileInput, { props: { id: 'restore-file', name: 'backupFile', accept: '.sqlite' }, global: { plugins: [i18n] } });
}

describe('a file field', () => {
  it('says what to do in the language of the app', () => {
    for (const [lang, button, none] of [
      ['cs', 'Vybrat soubor…', 'Není vybrán žádný soubor'],
      ['en', 'Choose file…', 'No file chosen'],
    ] as const) {
      const w = fileField(lang);
      expect(w.get('label[for=restore-file]').text()).toBe(button);
      expect(w.get('[data-testid=chosen-file]').text()).toBe(none);
      w.unmount();
    }
  });

  it('names the file picked, hands it on, and forgets it when cleared', async () => {
    const w = fileField('cs');
    const input = w.get('input[type=file]');
    const file = new File(['date;odometer\n'], 'tankování 2026.csv', { type: 'text/csv' });
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    expect(w.get('[data-testid=chosen-file]').text()).toBe('tankování 2026.csv');
    expect(w.emitted('file')).toEqual([[file]]);
    expect((w.vm as unknown as { file(): File | undefined }).file()).toBe(file);

    Object.defineProperty(input.element, 'files', { value: [], configurable: true });
    (w.vm as unknown as { clear(): void }).clear();
    await w.vm.$nextTick();
    expect(w.get('[data-testid=chosen-file]').text()).toBe('Není vybrán žádný soubor');
    w.unmount();
  });
});
