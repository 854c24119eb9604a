/** A sync started by the user, and its cancellation; the screens hear what the sync changed, by table. */
import { AppError, RECORD_TABLES, type DataTable, type SyncSummary } from '../../../src-shared/app-api';
import type { AnyEntry } from '../outbox/entries';
import { touchedBy } from '../write-kinds';
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
    const queued = core.outbox.all();
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
    await core.changed(changedBySync(summary, queued, core.outbox.all()));
    return summary;
  }
  return {
    sync: (i) => sync(i?.password),
    cancelSync: async () => ({ cancelled: await engine.cancel() }),
  };
}

/**
 * What a sync changed, by table: those of the records the pull brought (new, changed, or no longer
 * listed by the service), and those of each queued write whose entry is not as it was (sent, settled,
 * refused, its temporary ids replaced, or queued meanwhile by another process), the outbox's with them.
 */
export function changedBySync(summary: SyncSummary, before: readonly AnyEntry[], after: readonly AnyEntry[]): DataTable[] {
  const tables = new Set<DataTable>();
  for (const record of Object.keys(RECORD_TABLES) as (keyof typeof RECORD_TABLES)[]) {
    if ((summary.received?.[record] ?? 0) > 0) RECORD_TABLES[record].forEach((t) => tables.add(t));
  }
  const was = new Map(before.map((e) => [e.id, JSON.stringify(e)]));
  const is = new Map(after.map((e) => [e.id, JSON.stringify(e)]));
  for (const e of [...before, ...after]) {
    if (was.get(e.id) !== is.get(e.id)) touchedBy(e.kind).forEach((t) => tables.add(t));
  }
  return [...tables];
}
