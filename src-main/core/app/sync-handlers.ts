/** A sync started by the user, and its cancellation. */
import { AppError, type SyncSummary } from '../../../src-shared/app-api';
import type { CoreServices, Handlers } from './core-parts';

export function syncHandlers(core: CoreServices): Handlers<'sync' | 'cancelSync'> {
  const { engine, link } = core;
  /**
   * One sync. A password given is used for this sync only; when the user lets the app remember it (and
   * the service did not refuse it), it replaces the stored one, so that typing it again after a
   * refusal mends the connection.
   */
  async function sync(password?: string): Promise<SyncSummary> {
    // Checked before the password is set: the sync already running keeps the one it was given.
    if (engine.running) throw new AppError('syncRunning');
    link.syncPassword = password ?? null;
    let summary: SyncSummary;
    try {
      // Read afresh for this sync: the password given now, or the one stored.
      link.forgetCredentials();
      summary = await engine.sync();
    } finally {
      link.syncPassword = null;
    }
    if (password !== undefined && summary.errorCode !== 'auth' && link.connection()?.rememberPassword !== false) {
      await core.secrets.set('password', password);
    }
    await core.changed();
    return summary;
  }
  return {
    sync: (i) => sync(i?.password),
    cancelSync: async () => ({ cancelled: await engine.cancel() }),
  };
}
