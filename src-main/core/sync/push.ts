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
 *   the service's lists cannot show the effect, only the user's retry sends it again. The mark is made
 *   only if the entry still holds the write prepared, so a write the user changed or discarded
 *   meanwhile is never sent in its old form.
 * - A fault refuses only that write; writes that depend on it wait, the others go on.
 * - Only the service's verdict (a fault) refuses a write. Any other failure (connection lost, timeout,
 *   503, an HTML page, garbage) ends the round; after a pause (Retry-After, else backoff with jitter)
 *   the push resumes, until the budget runs out: then the push stops, every write still waiting, and
 *   the sync reports the service unavailable.
 */
import type { OutboxKind } from '../../../src-shared/app-api';
import { analyzeDependencies, effectiveStatuses } from '../outbox/dependencies';
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { CallError, causeParams, FaultError, InvalidCredentialsError, type RetryBudget, type SoapClient } from '../soap-client';
import { CommitBatcher } from '../store/commit-batcher';
import { EntryChanged, type Outbox } from '../store/outbox';
import type { Store } from '../store/store';
import { createAdaptiveLimiter, isTransientFailure } from '../util/adaptive-limiter';
import { EffectUndecidable, WRITE_KINDS, kindOf, type Effect, type Probe } from '../write-kinds';
import { ServerSnapshot } from './snapshot';
import { WritePusher } from './writes';

export interface PushOptions {
  /** Requests in flight at once, at most (the limit adapts below it to the round trip; 1: one at a time). */
  concurrency: number;
  /** Requests in flight at first (default 4). */
  initialConcurrency?: number;
  /** Sends of one write within one sync before the push gives up on the service. */
  maxSendsPerEntry: number;
  /** Pauses after transient failures, and how long the service may keep failing (shared with the pull). */
  budget: RetryBudget;
  now: () => string;
  onProgress?: (phase: 'push' | 'check', done: number, total: number) => void;
  /** Asked between writes; true stops the push (the app is closing). */
  shouldStop?: () => boolean;
}

export interface PushResult {
  pushed: number;
  refused: number;
  conflicts: number;
  /** Why the push stopped early, if it did. */
  error: unknown;
}

export class PushGaveUp extends Error {
  override name = 'PushGaveUp';
  readonly why = causeParams('gaveUp');
}

type RoundEnd = { progressed: boolean; interrupted: unknown };

/** Waiting writes examined for one that may start now. */
const LOOKAHEAD = 256;

export async function pushOutbox(client: SoapClient, store: Store, outbox: Outbox, options: PushOptions): Promise<PushResult> {
  // One bound for every request of the push, reads for snapshots and checks included.
  const limit = createAdaptiveLimiter({
    initial: options.initialConcurrency ?? 4,
    max: options.concurrency,
    isOverload: isTransientFailure,
  });
  const snapshot = new ServerSnapshot(client, options.budget, limit);
  const pusher = new WritePusher(client, store, snapshot, limit);
  const result: PushResult = { pushed: 0, refused: 0, conflicts: 0, error: null };
  const sends = new Map<number, number>();
  let done = 0;
  let total = 0;

  /**
   * The fault, if it refuses this one request rather than the caller: for a read a write needs, only a
   * fault about the caller's request counts (not the service's own trouble); for a write, any fault.
   * The interface leaves the wording of refused credentials open, so a fault that reads like one ("not
   * authorized...") is checked with a read: when that works, only this request was refused, and the
   * rest of the outbox goes on instead of stopping at it on every sync.
   */
  const refusalOf = async (e: unknown, of: 'read' | 'write'): Promise<FaultError | null> => {
    if (!(e instanceof FaultError) || (of === 'read' && e.fault.faultCode !== 'Client')) return null;
    if (!(e instanceof InvalidCredentialsError)) return e;
    return snapshot.freshAccounts().then(
      () => e,
      () => null,
    );
  };

  // Parallel writes share their durable commits: the marks that they are about to be sent, and their effects.
  const marks = new CommitBatcher<{ entry: AnyEntry; probe: Probe }>(store, ({ entry, probe }) =>
    outbox.markSent(entry.id, entry.input, probe, options.now()),
  );
  const effects = new CommitBatcher<{ entry: AnyEntry; effect: Effect }>(store, ({ entry, effect }) => pusher.applyEffect(entry, effect));
  const counted = () => {
    result.pushed++;
    options.onProgress?.('push', ++done, Math.max(total, done));
  };
  const finalize = (entry: AnyEntry, effect: Effect) => {
    pusher.finalize(entry, effect);
    counted();
  };
  const finalizeBatched = async (entry: AnyEntry, effect: Effect) => {
    await effects.submit({ entry, effect });
    pusher.noteEffect(effect);
    counted();
  };

  /** Whether an entry is still sent without an answer (the user may have retried or discarded it meanwhile). */
  const stillUnanswered = (id: number): boolean => {
    const status = outbox.get(id)?.status;
    return status !== undefined && isSentUnanswered(status);
  };

  /** Decides every unknown outcome (undecidable ones again) by looking for the write's effect on a fresh snapshot. */
  const checkRound = async (): Promise<RoundEnd> => {
    const unknown = outbox.all().filter((e) => isSentUnanswered(e.status));
    if (unknown.length === 0) return { progressed: false, interrupted: null };
    snapshot.invalidate();
    let progressed = false;
    try {
      for (const [i, e] of unknown.entries()) {
        options.onProgress?.('check', i, unknown.length);
        let effect: Effect | null;
        try {
          effect = await pusher.findEffect(e);
        } catch (err) {
          // The service refuses to show what the write touched (an account no longer shared...), or its
          // lists cannot show it: the write is undecidable, never sent blindly, and the writes that do
          // not depend on it go on.
          let message: string;
          if (err instanceof EffectUndecidable) message = err.message;
          else {
            const refusal = await refusalOf(err, 'read');
            if (!refusal) throw err;
            message = `Whether this write reached the service cannot be checked: ${refusal.message}`;
          }
          store.transaction(() => stillUnanswered(e.id) && outbox.setStatus(e.id, 'undecidable', message));
          continue;
        }
        if (effect) finalize(e, effect);
        else store.transaction(() => stillUnanswered(e.id) && outbox.setStatus(e.id, 'pending'));
        progressed = true;
      }
      options.onProgress?.('check', unknown.length, unknown.length);
      return { progressed, interrupted: null };
    } catch (e) {
      return { progressed, interrupted: e };
    }
  };

  /** Sends every pending write that can go now, in parallel where independent. */
  const sendRound = async (): Promise<RoundEnd> => {
    const entries = outbox.all();
    const deps = analyzeDependencies(entries);
    const statuses = effectiveStatuses(entries, deps);
    const queue = entries.filter((e) => statuses.get(e.id)!.status === 'pending');
    const state = new Map<number, 'waiting' | 'running' | 'ok' | 'failed'>(queue.map((e) => [e.id, 'waiting']));
    const keys = new Map(queue.map((e) => [e.id, kindOf(e).keys(e)]));
    total = done + queue.length + outbox.all().filter((e) => isSentUnanswered(e.status)).length;
    const running = new Map<number, Promise<void>>();
    let progressed = false;
    let interrupted: unknown = null;

    const run = async (id: number): Promise<void> => {
      const entry = outbox.get(id);
      if (!entry || entry.status !== 'pending') {
        state.set(id, 'failed');
        return;
      }
      if ((sends.get(id) ?? 0) >= options.maxSendsPerEntry) {
        throw new PushGaveUp(
          `The service did not confirm write #${id} (${WRITE_KINDS[entry.kind].label}) after ${options.maxSendsPerEntry} attempts.`,
        );
      }
      let prepared: Awaited<ReturnType<WritePusher['prepare']>>;
      try {
        prepared = await pusher.prepare(entry);
      } catch (e) {
        const refusal = await refusalOf(e, 'read');
        if (!refusal) throw e;
        // Reading what the write needs was refused (an unknown account, say): so would the write be.
        store.transaction(() => outbox.setStatus(id, 'refused', refusal.message));
        result.refused++;
        state.set(id, 'failed');
        return;
      }
      if (prepared.action === 'conflict') {
        store.transaction(() =>
          outbox.setStatus(
            id,
            'conflict',
            `The service changed ${prepared.conflicts.map((c) => c.field).join(', ')} meanwhile.`,
            prepared.conflicts,
          ),
        );
        result.conflicts++;
        state.set(id, 'failed');
        return;
      }
      if (prepared.action === 'done') {
        await finalizeBatched(entry, prepared.effect);
        state.set(id, 'ok');
        return;
      }
      // Durable before the request leaves: after a crash from here on, the write counts as sent.
      try {
        await marks.submit({ entry, probe: prepared.probe });
      } catch (e) {
        if (!(e instanceof EntryChanged)) throw e;
        // Discarded or changed by the user meanwhile: not sent; a changed write goes with the next sync.
        state.set(id, 'failed');
        return;
      }
      sends.set(id, (sends.get(id) ?? 0) + 1);
      let effect: Effect;
      try {
        effect = await pusher.send(entry, prepared.call, prepared.probe);
      } catch (e) {
        if (e instanceof EffectUndecidable) {
          // Accepted, but what it did cannot be told from the answer: kept as sent, for the user to decide.
          store.transaction(() => {
            if (e.partial) pusher.storeEffect(entry, e.partial);
            outbox.setStatus(id, 'undecidable', e.message);
          });
          if (e.partial) pusher.noteEffect(e.partial);
          state.set(id, 'failed');
          return;
        }
        const refusal = await refusalOf(e, 'write');
        if (refusal) {
          store.transaction(() => outbox.get(id) && outbox.setStatus(id, 'refused', refusal.message));
          result.refused++;
          state.set(id, 'failed');
          return;
        }
        // Refused credentials or a request that never left: the write certainly did not happen.
        if (e instanceof InvalidCredentialsError || (e instanceof CallError && !e.sent)) {
          store.transaction(() => outbox.get(id) && outbox.setStatus(id, 'pending'));
        }
        throw e;
      }
      await finalizeBatched(entry, effect);
      state.set(id, 'ok');
    };

    const startable = (): number[] => {
      /**
       * What holds each key in this scan: a running (or starting) write holds it for everyone; a waiting
       * write keeps it for the writes after it, except later writes of a kind that commutes with it.
       */
      const held = new Map<string, 'running' | 'ordered' | OutboxKind>();
      const freeFor = (kind: OutboxKind, k: string) => {
        const h = held.get(k);
        return h === undefined || (h === kind && WRITE_KINDS[kind].commutes === true);
      };
      const out: number[] = [];
      let looked = 0;
      for (const e of queue) {
        const s = state.get(e.id)!;
        if (s === 'ok' || s === 'failed') continue;
        // A bounded look ahead: enough to fill the free slots, without rescanning a long outbox each time.
        if (++looked > LOOKAHEAD || out.length + running.size >= limit.limit) break;
        const waits = deps.get(e.id)!.waitsFor;
        if (s === 'waiting' && waits.some((w) => state.get(w) === 'failed' || (!state.has(w) && outbox.get(w) !== null))) {
          // It waits for a write that was refused, is in conflict, or is not ready this round.
          state.set(e.id, 'failed');
          continue;
        }
        const mine = keys.get(e.id)!;
        const free = mine.every((k) => freeFor(e.kind, k));
        const starts = s === 'waiting' && free && waits.every((w) => !state.has(w) || state.get(w) === 'ok');
        for (const k of mine) {
          if (s === 'running' || starts) held.set(k, 'running');
          else if (held.get(k) !== 'running') held.set(k, held.get(k) === undefined || held.get(k) === e.kind ? e.kind : 'ordered');
        }
        if (starts) out.push(e.id);
      }
      return out;
    };

    for (;;) {
      if (!interrupted && !options.shouldStop?.()) {
        for (const id of startable()) {
          if (running.size >= limit.limit) break;
          state.set(id, 'running');
          const p = run(id)
            .then(() => {
              if (state.get(id) === 'ok' || state.get(id) === 'failed') progressed = true;
            })
            .catch((e) => {
              state.set(id, 'failed');
              interrupted ??= e;
            })
            .finally(() => running.delete(id));
          running.set(id, p);
        }
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
    return { progressed, interrupted };
  };

  /**
   * The credentials are tried first with one read, which the writes' snapshots share (accounts are read
   * anyway): refused, they cost the service one failed login, where writes in flight (and the read that
   * tells a refused request from refused credentials) would each cost one more towards its lockout.
   */
  let credentialsChecked = outbox.all().every((e) => e.status !== 'pending' && !isSentUnanswered(e.status));
  const checkCredentials = async (): Promise<RoundEnd> => {
    if (credentialsChecked) return { progressed: false, interrupted: null };
    try {
      await snapshot.accounts();
      credentialsChecked = true;
      return { progressed: false, interrupted: null };
    } catch (e) {
      return { progressed: false, interrupted: e };
    }
  };

  let failedRounds = 0;
  for (;;) {
    if (options.shouldStop?.()) break;
    const first = await checkCredentials();
    const check = first.interrupted ? first : await checkRound();
    let end = check;
    if (!check.interrupted) {
      const send = await sendRound();
      end = { progressed: check.progressed || send.progressed, interrupted: send.interrupted };
    }
    if (!end.interrupted) break;
    const e = end.interrupted;
    if (!(e instanceof CallError) || !e.transient) {
      result.error = e;
      break;
    }
    if (end.progressed) options.budget.succeeded();
    failedRounds = end.progressed ? 1 : failedRounds + 1;
    try {
      await options.budget.pause(e, failedRounds);
    } catch (exhausted) {
      result.error = exhausted;
      break;
    }
  }
  return result;
}
