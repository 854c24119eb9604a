/** The window's key handler for the shortcut table (../shortcuts.ts): each shortcut's action, given by the app. */
import { onBeforeUnmount, onMounted } from 'vue';
import type { ShortcutId } from '../../../src-shared/shortcuts';
import { shortcutFor } from '../shortcuts';

/** Listens while the calling component is mounted; the record must name an action for every shortcut. */
export function useShortcuts(actions: Record<ShortcutId, () => void>): void {
  function onKeydown(event: KeyboardEvent): void {
    const id = shortcutFor(event, document);
    if (id === null) return;
    event.preventDefault();
    actions[id]();
  }
  onMounted(() => window.addEventListener('keydown', onKeydown));
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown));
}
