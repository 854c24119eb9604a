// @vitest-environment happy-dom
/**
 * The keyboard shortcuts (one table, src-renderer/src/shortcuts.ts): the window's handler fires each one's
 * action, a bare letter never while the user types in a field or a dialog is open, a chord with Alt also in
 * a field; the list behind `?` shows every shortcut of the table in both languages.
 */
import { enableAutoUnmount, mount } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import ShortcutsDialog from '../../src-renderer/src/components/ShortcutsDialog.vue';
import { useShortcuts } from '../../src-renderer/src/composables/shortcuts';
import { i18n } from '../../src-renderer/src/i18n';
import cs from '../../src-renderer/src/i18n/cs';
import en from '../../src-renderer/src/i18n/en';
import { ariaKeyShortcuts, chordText, isMac, matchesChord } from '../../src-renderer/src/shortcuts';
import { accelerator, SHORTCUTS, type ShortcutId } from '../../src-shared/shortcuts';
import { readBothLanguages } from '../support/messages';

beforeAll(readBothLanguages);

enableAutoUnmount(afterEach);
afterEach(() => {
  i18n.global.locale.value = 'cs';
  document.body.innerHTML = '';
});

/** A page with a field of each kind, a button and a closed dialog, the shortcuts' actions counted. */
function page() {
  const actions = { pump: vi.fn(), sync: vi.fn(), help: vi.fn() } satisfies Record<ShortcutId, () => void>;
  const Host = defineComponent({
    setup() {
      useShortcuts(actions);
      return () =>
        h('div', [
          h('input', { name: 'text', type: 'text' }),
          h('input', { name: 'check', type: 'checkbox' }),
          h('textarea', { name: 'note' }),
          h('select', { name: 'car' }, [h('option', 'Octavia')]),
          h('div', { name: 'editable', contenteditable: 'true' }),
          h('button', { name: 'button', type: 'button' }, 'Go'),
          h('dialog', { name: 'dialog' }, [h('input', { name: 'in-dialog' })]),
        ]);
    },
  });
  const wrapper = mount(Host, { attachTo: document.body });
  /** Presses a key with the focus on the named element (the body for null); says whether the page took it. */
  const press = (where: string | null, init: KeyboardEventInit): boolean => {
    const target = where === null ? document.body : document.querySelector<HTMLElement>(`[name=${where}]`)!;
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event.defaultPrevented;
  };
  const calls = () => ({
    pump: actions.pump.mock.calls.length,
    sync: actions.sync.mock.calls.length,
    help: actions.help.mock.calls.length,
  });
  return { wrapper, press, calls };
}

describe('the shortcut handler', () => {
  it('opens the pump with p, or Alt+P, outside a field; the list with ?; syncs with Ctrl+Shift+S or ⌘⇧S', () => {
    const { press, calls } = page();
    expect(press(null, { key: 'p', code: 'KeyP' })).toBe(true);
    expect(press('button', { key: 'p', code: 'KeyP' })).toBe(true);
    expect(press('check', { key: 'p', code: 'KeyP' })).toBe(true);
    expect(press(null, { key: 'p', code: 'KeyP', altKey: true })).toBe(true);
    // Option+P on a Mac gives π: the physical key counts.
    expect(press(null, { key: 'π', code: 'KeyP', altKey: true })).toBe(true);
    expect(press(null, { key: '?', code: 'Slash', shiftKey: true })).toBe(true);
    // On a Czech keyboard ? is Shift and the comma key.
    expect(press(null, { key: '?', code: 'Comma', shiftKey: true })).toBe(true);
    expect(press(null, { key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(press(null, { key: 's', code: 'KeyS', metaKey: true, shiftKey: true })).toBe(true);
    expect(calls()).toEqual({ pump: 5, help: 2, sync: 2 });
  });

  it('leaves a bare letter or sign typed in a field to the field, and takes a chord with Alt there too', () => {
    const { press, calls } = page();
    for (const field of ['text', 'note', 'car', 'editable']) {
      expect(press(field, { key: 'p', code: 'KeyP' }), field).toBe(false);
      expect(press(field, { key: '?', code: 'Slash', shiftKey: true }), field).toBe(false);
    }
    expect(calls()).toEqual({ pump: 0, help: 0, sync: 0 });
    expect(press('text', { key: 'p', code: 'KeyP', altKey: true })).toBe(true);
    expect(press('note', { key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(calls()).toEqual({ pump: 1, help: 0, sync: 1 });
  });

  it("leaves the browser's and the system's keys alone: Ctrl+P prints, AltGr types, Shift+P, a held key, an IME", () => {
    const { press, calls } = page();
    expect(press(null, { key: 'p', code: 'KeyP', ctrlKey: true })).toBe(false);
    expect(press(null, { key: 'p', code: 'KeyP', metaKey: true })).toBe(false);
    expect(press(null, { key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true })).toBe(false);
    // AltGr on Windows is Ctrl+Alt.
    expect(press(null, { key: 'p', code: 'KeyP', ctrlKey: true, altKey: true })).toBe(false);
    expect(press(null, { key: 'P', code: 'KeyP', shiftKey: true })).toBe(false);
    expect(press(null, { key: 'p', code: 'KeyP', repeat: true })).toBe(false);
    expect(press(null, { key: 'p', code: 'KeyP', isComposing: true })).toBe(false);
    expect(press(null, { key: 's', code: 'KeyS', ctrlKey: true })).toBe(false);
    // A layout whose P key gives another Latin letter (Dvorak: L) is that letter, not P.
    expect(press(null, { key: 'l', code: 'KeyP' })).toBe(false);
    expect(calls()).toEqual({ pump: 0, help: 0, sync: 0 });
  });

  it('does nothing while a dialog is open, not even a chord: the dialog keeps its keys', () => {
    const { press, calls } = page();
    document.querySelector('dialog')!.setAttribute('open', '');
    expect(press('button', { key: 'p', code: 'KeyP' })).toBe(false);
    expect(press('in-dialog', { key: 'p', code: 'KeyP', altKey: true })).toBe(false);
    expect(press(null, { key: '?', shiftKey: true })).toBe(false);
    expect(press(null, { key: 's', code: 'KeyS', ctrlKey: true, shiftKey: true })).toBe(false);
    document.querySelector('dialog')!.removeAttribute('open');
    expect(press(null, { key: '?', shiftKey: true })).toBe(true);
    expect(calls()).toEqual({ pump: 0, help: 1, sync: 0 });
  });

  it('stops listening when its component is gone', () => {
    const { wrapper, press, calls } = page();
    wrapper.unmount();
    expect(press(null, { key: 'p', code: 'KeyP' })).toBe(false);
    expect(calls().pump).toBe(0);
  });
});

describe('the shortcut table', () => {
  it('has no chord twice, and a description for each shortcut in both languages', () => {
    const chords = SHORTCUTS.flatMap((s) => s.chords.map((c) => JSON.stringify(c)));
    expect(new Set(chords).size).toBe(chords.length);
    for (const s of SHORTCUTS) {
      expect(en.shortcuts[s.id], s.id).toBeTruthy();
      expect(cs.shortcuts[s.id], s.id).toBeTruthy();
    }
  });

  it('names the keys as each system does, and to assistive technology', () => {
    const sync = SHORTCUTS.find((s) => s.id === 'sync')!.chords[0]!;
    expect(chordText(sync, false)).toBe('Ctrl+Shift+S');
    expect(chordText(sync, true)).toBe('⇧⌘S');
    // The desktop menu's Sync Now takes its accelerator from the same table.
    expect(accelerator(sync)).toBe('CmdOrCtrl+Shift+S');
    expect(chordText({ key: 'p', alt: true }, true)).toBe('⌥P');
    expect(ariaKeyShortcuts('pump', false)).toBe('P Alt+P');
    expect(ariaKeyShortcuts('sync', true)).toBe('Meta+Shift+S');
    expect(ariaKeyShortcuts('help', false)).toBe('Shift+?');
    expect(isMac({ platform: 'MacIntel', userAgent: '' })).toBe(true);
    expect(isMac({ platform: 'Win32', userAgent: '' })).toBe(false);
    expect(matchesChord(new KeyboardEvent('keydown', { key: 'P', code: 'KeyP', shiftKey: true }), { key: 'p', shift: true })).toBe(true);
  });
});

describe('the list behind ?', () => {
  for (const [lang, messages] of [
    ['en', en],
    ['cs', cs],
  ] as const) {
    it(`shows every shortcut of the table with its keys, in ${lang}`, () => {
      i18n.global.locale.value = lang;
      const wrapper = mount(ShortcutsDialog, { props: { open: true }, global: { plugins: [i18n] }, attachTo: document.body });
      expect(wrapper.find('h2').text()).toBe(messages.shortcuts.title);
      const rows = wrapper.findAll('tbody tr');
      expect(rows.map((r) => r.attributes('data-shortcut'))).toEqual(SHORTCUTS.map((s) => s.id));
      /** A row as [action, keys], the keys' text as a screen reader reads it. */
      const text = (id: ShortcutId) => {
        const row = rows.find((r) => r.attributes('data-shortcut') === id)!;
        return [row.find('th').text(), row.find('td').element.textContent.replace(/\s+/g, ' ').trim()];
      };
      expect(text('pump')).toEqual([messages.shortcuts.pump, `P ${messages.shortcuts.or} Alt+P`]);
      expect(text('sync')).toEqual([messages.shortcuts.sync, 'Ctrl+Shift+S']);
      expect(text('help')).toEqual([messages.shortcuts.help, '?']);
      wrapper.unmount();
    });
  }
});
