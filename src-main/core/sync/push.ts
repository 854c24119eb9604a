/**
 * Push: send the outbox to the service, never losing a write and never applying one twice.
 *
 * - Order: writes that touch the same record (an account, a category tree, a refueling) go in the
 *   order they were made; a write that refers to a record another write creates waits for it.
 *   Independent writes go in parallel (bounded), which is what makes a long outbox quick.
 * - Before a write is sent, the outbox records that it may have been sent, together with its probe
 *   (what existed before), in a committed transaction. A crash or a lost answer therefore leaves it
 *   'unknown', and an unknown write is never sent again before the service has been searched for its
 *   effect (with all other writes settled, so that no write in flight can be mistaken for it); when
 *   the service's lists cannot show the effect, it is 'undecidable': only the user's retry sends it
 *   again. The mark is made only if the entry still holds the write prepared, so a write the user
 *   changed or discarded meanwhile is never sent in its old form.
 * - A fault refuses only that write; writes that depend on it wait, the others go on.
 * - Only the service's verdict (a fault) refuses a write. Any other failure (connection lost, timeout,
 *   503, an HTML page, garbage) ends the round; after a pause (Retry-After, else backoff with jitter)
 *   the push resumes, until the budget runs out: then the push stops, every write still waiting, and
 *   the sync reports the service unavailable.
 *
 * Here is the scheduler of the rounds; each round works on one push's explicit state (push-run.ts): the
 * check round (check-round.ts), then the send round (send-round.ts). What becomes of each write is turned
 * into its outbox status and the push's counts in one place (outcomes.ts).
 */
import { CallError, type SoapClient } from '../soap-client';
import type { Store } from '../store/store';
import { checkRound } from './check-round';
import { PushRun, type PushOptions, type PushResult, type RoundEnd } from './push-run';
import { SendRound } from './send-round';

export { PushGaveUp, type PushOptions, type PushResult } from './push-run';

/** One pass: the credentials (once), then the check of every write sent without an answer, then the sends. */
async function round(run: PushRun): Promise<RoundEnd> {
  const first = await run.checkCredentials();
  if (first.interrupted) return first;
  const check = await checkRound(run);
  if (check.interrupted) return check;
  const send = await new SendRound(run).sendAll();
  return { progressed: check.progressed || send.progressed, interrupted: send.interrupted };
}

/**
 * The scheduler: rounds until one ends without a failure. A failure that is no verdict (transient) ends the
 * round; after a pause (Retry-After, else backoff with jitter) the push resumes, until the budget runs out.
 */
export async function pushOutbox(client: SoapClient, store: Store, options: PushOptions): Promise<PushResult> {
  const run = new PushRun(client, store, options);
  let failedRounds = 0;
  for (;;) {
    if (options.shouldStop?.()) break;
    const end = await round(run);
    if (!end.interrupted) break;
    const e = end.interrupted;
    if (!(e instanceof CallError) || !e.transient) {
      run.result.error = e;
      break;
    }
    if (end.progressed) options.budget.succeeded();
    failedRounds = end.progressed ? 1 : failedRounds + 1;
    try {
      await options.budget.pause(e, failedRounds);
    } catch (exhausted) {
      run.result.error = exhausted;
      break;
    }
  }
  return run.result;
}
