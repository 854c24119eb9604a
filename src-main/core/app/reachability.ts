/**
 * Whether the stored service answers at all, asked cheaply and often enough for the badge to know: one
 * GET of its WSDL, no credentials, through the transport and trust of every exchange with it (the
 * link's carriage), never a sync, at most once a minute whoever asks (every window of the app shares
 * this core). The screens ask when the window gains focus, when the system goes on or off line, and
 * while the badge says unreachable.
 */
import { outcomeOf, type AppErrorData, type ExchangeOutcome, type ReachabilityCheck } from '../../../src-shared/app-api';
import { reach } from '../soap-client';
import { classify } from '../sync/engine';
import { lastExchange, recordExchange } from '../sync/exchanges';
import type { CoreServices, Handlers } from './core-parts';

/** The least time between two checks. */
export const REACHABILITY_INTERVAL_MS = 60_000;

/**
 * What a check that reached the service settles: a verdict on the way there (unreachable, a refused
 * certificate) gives way to 'connected', and 'connected' is confirmed; a verdict on the service's answers
 * to credentials (refused, an error) stands, as a check sends none; nothing is claimed before a first
 * exchange.
 */
const SETTLED_BY_REACHING: ReadonlySet<ExchangeOutcome> = new Set(['connected', 'unreachable', 'certificate-refused']);

/** The outcomes a check can find without credentials: those it records. */
const FOUND_BY_CHECKING: ReadonlySet<ExchangeOutcome> = new Set(['unreachable', 'certificate-refused']);

/** `intervalMs`: the least time between checks; `clock`: monotonic milliseconds (performance.now). */
export function reachabilityHandlers(
  core: CoreServices,
  intervalMs = REACHABILITY_INTERVAL_MS,
  clock: () => number = () => performance.now(),
): Handlers<'checkReachability'> {
  let lastStarted: number | null = null;
  let running = false;

  const skipped = async (): Promise<ReachabilityCheck> => ({ checked: false, outcome: null, status: await core.status() });

  return {
    checkReachability: async () => {
      const c = core.link.connection();
      if (!c || core.store.settings.get('workingOffline') || core.engine.running || core.engine.heldElsewhere()) return skipped();
      if (running || (lastStarted !== null && clock() - lastStarted < intervalMs)) return skipped();
      lastStarted = clock();
      running = true;
      try {
        const outcome = await checkOnce(core, c.baseUrl, c.trustedCertificate ?? null);
        return { checked: true, outcome, status: await core.status() };
      } finally {
        running = false;
      }
    },
  };
}

/** One check: its outcome, recorded as the last exchange where it settles the badge. */
async function checkOnce(core: CoreServices, baseUrl: string, trusted: string | null): Promise<ExchangeOutcome> {
  let outcome: ExchangeOutcome;
  let error: AppErrorData | null = null;
  try {
    await reach(baseUrl, { timeoutMs: core.link.timeoutMs(), ...core.link.carriage(trusted) });
    outcome = 'connected';
  } catch (e) {
    const stop = classify(e);
    // Something answered, but not as a service does (an answer that cannot be decoded): reached all the same.
    outcome = outcomeOf(stop.code) ?? 'service-error';
    error = stop.error;
  }
  const last = lastExchange(core.store)?.outcome;
  const record = outcome === 'connected' ? last !== undefined && SETTLED_BY_REACHING.has(last) : FOUND_BY_CHECKING.has(outcome);
  if (record) {
    recordExchange(core.store, { outcome, at: core.now(), via: 'check', error: outcome === 'connected' ? null : error });
    await core.changed([]);
  }
  return outcome;
}
