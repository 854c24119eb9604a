/** The sync as the screens see it: running or not, its progress and waits (sync-run.ts), what the last one said, and running one. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, SyncSummary } from '../../../src-shared/app-api';
import { api, toAppError } from '../api';
import { usePasswordPromptStore } from './password-prompt';
import { useStatusStore } from './status';
import { createSyncRun, type SyncEvent } from './sync-run';

export type { SyncEvent, SyncProgress, SyncWait } from './sync-run';

export const useSyncStore = defineStore('sync', () => {
  const status = useStatusStore();
  const prompt = usePasswordPromptStore();
  const run = createSyncRun(() => status.status?.syncing ?? false);
  const { syncing, cancelling } = run.state;
  /** The last sync's summary while the banner shows it. */
  const summary = ref<SyncSummary | null>(null);
  /** Why the last press of Sync did not start or finish (busy, not connected, bridge down). */
  const syncError = ref<AppError | null>(null);

  /** A sync's event, whoever started it; its summary is kept for the banner and tells the status what it found. */
  function follow(event: SyncEvent): void {
    run.follow(event);
    if (event.type !== 'sync-finished') return;
    summary.value = event.summary;
    status.sawSync(event.summary);
  }

  /**
   * Runs a sync. Without a password where none is kept (the user chose to be asked at each sync), the
   * password dialog opens instead and its answer starts the sync. What the sync changed reaches the
   * screens as the core's data-changed event, which names its tables.
   */
  async function sync(password?: string): Promise<SyncSummary | null> {
    if (syncing.value) return null;
    if (password === undefined && status.status?.connection?.rememberPassword === false) {
      prompt.ask('needed');
      return null;
    }
    syncError.value = null;
    run.starting.value = true;
    try {
      const result = await api().sync(password === undefined ? undefined : { password });
      summary.value = result;
      status.sawSync(result);
      // No password kept (the browser shell after a restart): ask for it at once.
      if (result.errorCode === 'password-needed') prompt.ask('needed');
      return result;
    } catch (e) {
      const error = toAppError(e);
      // A sync started elsewhere (the menu, another window) is already reporting through the events.
      if (error.kind !== 'busy') syncError.value = error;
      return null;
    } finally {
      run.ended();
      await status.refresh();
    }
  }

  /** The password dialog's answer: closes it and syncs with that password (null: the user cancelled). */
  async function answerPassword(password: string | null): Promise<void> {
    prompt.close();
    if (password === null) return;
    summary.value = null;
    await sync(password);
  }

  /** Cancels the running sync: what is queued stays queued; the summary says so. */
  async function cancelSync(): Promise<void> {
    if (!syncing.value || cancelling.value) return;
    const refused = await run.cancel();
    if (refused) syncError.value = refused;
  }

  function dismissSummary(): void {
    summary.value = null;
    syncError.value = null;
  }

  return { ...run.state, summary, syncError, follow, sync, answerPassword, cancelSync, dismissSummary };
});
