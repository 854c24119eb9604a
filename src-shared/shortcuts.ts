/**
 * The app's keyboard shortcuts, written once: the renderer's key handler, its list behind `?`, the controls'
 * aria-keyshortcuts and hints (src-renderer/src/shortcuts.ts), and the desktop menu's accelerators
 * (src-main/electron/menu.ts) all read this table.
 *
 * The keys, and why these: a single letter (`p`, `?`) outside text fields, as Gmail and GitHub do, since no
 * browser and no system binds a bare letter; a chord that also works while typing in a field. The chords
 * avoid what browsers and systems keep for themselves: Ctrl/Cmd+Shift+P is the system print dialog in
 * Chrome and a private window in Firefox and Edge, Ctrl+Alt+letter is AltGr on Windows (Czech letters and
 * symbols are typed with it), Alt+Shift switches the keyboard layout on Windows. Alt+P (Option+P on a Mac)
 * is none of these: no browser's menu has a P, and this app's own menu (&File, &Edit, &View, &Window) has
 * no P either. Ctrl/Cmd+Shift+S is the desktop menu's Sync Now, and works in the browser shell too.
 */

/**
 * A key to press: `key` as KeyboardEvent.key gives it without modifiers ('p', '?'); `alt` and `mod` (Ctrl,
 * or ⌘ on a Mac) must be held. A chord with neither types a character, so it works only outside fields.
 */
export interface Chord {
  key: string;
  mod?: true;
  shift?: true;
  alt?: true;
}

export interface Shortcut {
  /** Its description's message key is `shortcuts.<id>`. */
  id: ShortcutId;
  chords: readonly Chord[];
}

export type ShortcutId = 'pump' | 'sync' | 'help';

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'pump', chords: [{ key: 'p' }, { key: 'p', alt: true }] },
  { id: 'sync', chords: [{ key: 's', mod: true, shift: true }] },
  { id: 'help', chords: [{ key: '?' }] },
];

/** The chords of a shortcut. */
export const chordsOf = (id: ShortcutId): readonly Chord[] => SHORTCUTS.find((s) => s.id === id)!.chords;

/** A chord with Ctrl or ⌘ as an Electron menu accelerator ("CmdOrCtrl+Shift+S"). */
export function accelerator(chord: Chord): string {
  return [chord.mod ? 'CmdOrCtrl' : '', chord.alt ? 'Alt' : '', chord.shift ? 'Shift' : '', chord.key.toUpperCase()]
    .filter(Boolean)
    .join('+');
}
