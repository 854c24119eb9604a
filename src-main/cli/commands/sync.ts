/** `sync`: sends the outbox, then fetches everything; its exit code tells the outcome (exit-codes.ts). */
import { AppError, type SyncSummary } from '../../../src-shared/app-api';
import { defineCommand } from '../command';
import { Countdown } from '../countdown';
import { SYNC_EXIT, syncExitCode } from '../exit-codes';
import * as fmt from '../format';

export const sync = defineCommand({
  name: 'sync',
  summary: `Sends the outbox, then fetches everything from the service. Exit code ${SYNC_EXIT.delivered}: all delivered; ${SYNC_EXIT.refused}: some writes refused or in conflict; ${SYNC_EXIT.unavailable}: service unavailable, writes waiting; ${SYNC_EXIT.cancelled}: cancelled (Ctrl-C).`,
  async run(ctx) {
    const countdown = new Countdown(ctx.io);
    const off = ctx.core.onEvent((e) => {
      if (e.type === 'sync-waiting') countdown.start(e.until, e.reason);
      else if (e.type === 'sync-progress' || e.type === 'sync-finished') countdown.stop();
    });
    ctx.io.onInterrupt?.(() => {
      ctx.io.stderr('Cancelling the sync (Ctrl-C again to quit at once)...');
      void ctx.core.cancelSync();
    });
    let summary;
    try {
      summary = await ctx.core.sync();
    } finally {
      countdown.stop();
      off();
      ctx.io.onInterrupt?.(null);
    }
    ctx.out(summary, fmt.summaryText(summary));
    const code = syncExitCode(summary);
    if (code === SYNC_EXIT.failed) {
      throw summaryError(summary);
    }
    if (summary.error) ctx.io.stderr(`error: ${summaryError(summary).message}`);
    return code;
  },
});

/** A failed sync as the command line's error: the summary's, worded in English. */
function summaryError(summary: SyncSummary): AppError {
  return AppError.fromData(summary.error ?? { code: 'syncUnexpected', params: {} });
}
