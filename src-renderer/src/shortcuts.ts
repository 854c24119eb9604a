/**
 * The shortcut table (src-shared/shortcuts.ts) in the browser: which event is which shortcut (the window's
 * handler is composables/shortcuts.ts), and the keys' names as a user and assistive technology read them.
 */
import { chordsOf, SHORTCUTS, type Chord, type ShortcutId } from '../../src-shared/shortcuts';

const LETTER = /^[a-z]$/;

/** Whether the chord types a character (no Alt, Ctrl or ⌘ held): such a chord must not fire inside a field. */
export const typesCharacter = (chord: Chord): boolean => !chord.mod && !chord.alt;

/**
 * Whether the event is the chord. A letter is matched by the key it gives, or by its physical key when the
 * layout gives no Latin letter (a Russian layout, or Option on a Mac turning P into π); a symbol such as `?`
 * only by the key it gives, since where it sits (and whether Shift is needed) depends on the layout.
 */
export function matchesChord(event: KeyboardEvent, chord: Chord): boolean {
  const mod = event.ctrlKey || event.metaKey;
  // Ctrl and Alt together are AltGr on Windows: a character being typed, never a shortcut.
  if (mod !== !!chord.mod || event.altKey !== !!chord.alt) return false;
  if (!LETTER.test(chord.key)) return event.key === chord.key;
  if (event.shiftKey !== !!chord.shift) return false;
  const key = event.key.toLowerCase();
  if (key === chord.key) return true;
  return !/^[a-z]$/.test(key) && event.code === `Key${chord.key.toUpperCase()}`;
}

/** Inputs that take no typed text: a letter pressed on them is free for a shortcut. */
const NOT_TYPED = ['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file'];

/** Controls the user types into (or picks from with letters): a bare letter there is input, not a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.includes(target.type);
  return ['textbox', 'combobox', 'searchbox', 'spinbutton'].includes(target.getAttribute('role') ?? '');
}

/** A modal dialog or a popup that holds the focus (the calendar of a date field) is open: its keys are its own. */
export const dialogOpen = (doc: Document): boolean => doc.querySelector('dialog[open], [role=dialog], [role=alertdialog]') !== null;

/**
 * The shortcut the event asks for, or null: none while a dialog is open, none that types a character while
 * the focus is in a field, none for a repeated key or one held while composing (an IME).
 */
export function shortcutFor(event: KeyboardEvent, doc: Document): ShortcutId | null {
  if (event.defaultPrevented || event.repeat || event.isComposing || dialogOpen(doc)) return null;
  const typing = isTypingTarget(event.target);
  for (const shortcut of SHORTCUTS) {
    if (shortcut.chords.some((c) => (!typing || !typesCharacter(c)) && matchesChord(event, c))) return shortcut.id;
  }
  return null;
}

/** Whether this is a Mac, where `mod` is ⌘ and Alt is called Option (⌥). */
export function isMac(nav: Pick<Navigator, 'platform' | 'userAgent'> | undefined = globalThis.navigator): boolean {
  return !!nav && /Mac|iPhone|iPad/.test(nav.platform || nav.userAgent);
}

/** The keys of a chord as a user reads them, one label a key: ['Ctrl', 'Shift', 'S'], or ['⌘', '⇧', 'S'] on a Mac. */
export function chordKeys(chord: Chord, mac: boolean): string[] {
  const key = chord.key.toUpperCase();
  // Each system's own order: Ctrl+Alt+Shift on Windows and Linux, ⌥⇧⌘ on a Mac.
  if (mac) return [chord.alt ? '⌥' : '', chord.shift ? '⇧' : '', chord.mod ? '⌘' : '', key].filter(Boolean);
  return [chord.mod ? 'Ctrl' : '', chord.alt ? 'Alt' : '', chord.shift ? 'Shift' : '', key].filter(Boolean);
}

/** A chord as one text ("Ctrl+Shift+S", "⇧⌘S" on a Mac), for a hint or a title. */
export const chordText = (chord: Chord, mac: boolean): string => chordKeys(chord, mac).join(mac ? '' : '+');

/** A shortcut's chords in the form of aria-keyshortcuts ("P Alt+P", "Control+Shift+S", "Shift+?"). */
export function ariaKeyShortcuts(id: ShortcutId, mac: boolean): string {
  return chordsOf(id)
    .map((c) => {
      const mods = [c.mod ? (mac ? 'Meta' : 'Control') : '', c.alt ? 'Alt' : '', c.shift || !LETTER.test(c.key) ? 'Shift' : ''];
      return [...mods.filter(Boolean), c.key.toUpperCase()].join('+');
    })
    .join(' ');
}
