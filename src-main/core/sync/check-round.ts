/**
 * The check round: every write sent without an answer (unknown, and undecidable ones again) is decided by
 * looking for its effect on a fresh read of the service, with no write in flight that could be mistaken for
 * it. Found: done. Not there: pending, to be sent. Not to be told: undecidable, never sent blindly.
 */
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { EffectUndecidable } from '../write-kinds';
import type { WriteOutcome } from './outcomes';
import type { PushRun, RoundEnd } from './push-run';

/** What looking for one write's effect decided; throws what no outcome of this write is (the round ends). */
async function lookFor(run: PushRun, entry: AnyEntry): Promise<WriteOutcome> {
  try {
    const effect = await run.pusher.findEffect(entry);
    return effect ? { to: 'done', effect } : { to: 'pending' };
  } catch (err) {
    // The service refuses to show what the write touched (an account no longer shared...), or its lists
    // cannot show it: the write is undecidable, and the writes that do not depend on it go on.
    if (err instanceof EffectUndecidable) return { to: 'undecidable', message: err.message };
    const refusal = await run.refusalOf(err, 'read');
    if (!refusal) throw err;
    return { to: 'undecidable', message: `Whether this write reached the service cannot be checked: ${refusal.message}` };
  }
}

export async function checkRound(run: PushRun): Promise<RoundEnd> {
  const sent = run.store.outbox.all().filter((e) => isSentUnanswered(e.status));
  if (sent.length === 0) return { progressed: false, interrupted: null };
  run.snapshot.invalidate();
  let progressed = false;
  try {
    for (const [i, entry] of sent.entries()) {
      run.options.onProgress?.('check', i, sent.length);
      const outcome = await lookFor(run, entry);
      await run.outcomes.settle(entry, outcome, { sent: true });
      if (outcome.to !== 'undecidable') progressed = true;
    }
    run.options.onProgress?.('check', sent.length, sent.length);
    return { progressed, interrupted: null };
  } catch (e) {
    return { progressed, interrupted: e };
  }
}
