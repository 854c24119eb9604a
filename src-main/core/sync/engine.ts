/**
 * The sync engine: push the outbox, then pull everything, then let the view lay what is still
 * queued over the new server copy. One sync at a time, also across processes sharing the local file
 * (the app and the command line): a lock row names the holding process, and a lock whose process is
 * gone (killed mid-sync) is taken over. Progress is reported as events; the end is a summary.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import {
  AppError,
  summaryOutcome,
  type AppErrorData,
  type AppEvent,
  type ErrorArgs,
  type ErrorCode,
  type SyncPhase,
  type SyncSummary,
} from '../../../src-shared/app-api';
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { pull } from '../pull';
import {
  CallError,
  CancelledError,
  CertificateError,
  ProxyError,
  DEFAULT_RETRY,
  callToAppError,
  RetriesExhausted,
  RetryBudget,
  type RetryPolicy,
  type SoapClient,
} from '../soap-client';
import { isDamageError } from '../store/local-file';
import type { Outbox } from '../store/outbox';
import type { Store } from '../store/store';
import { recordExchange } from './exchanges';
import { currentHolder, holderAlive, isCurrent } from './lock-holder';
import { PushGaveUp, pushOutbox } from './push';

export interface SyncTuning {
  /**
   * Requests in flight at once during a push and a pull, at most: the limit adapts to the round trip
   * below these caps (see util/adaptive-limiter.ts); 1 means one request at a time.
   */
  pushConcurrency: number;
  pullConcurrency: number;
  /** Requests in flight at the start of each phase. */
  initialConcurrency: number;
  maxSendsPerEntry: number;
  /** Pauses between tries after transient failures (Retry-After honoured, else backoff with jitter). */
  retry: RetryPolicy;
  /** The budget: a sync gives up once the service has failed this long in a row. */
  unavailableMs: number;
  /** The deadline of a whole sync: past it no request starts and the sync ends, writes kept waiting. */
  deadlineMs: number;
  /** A lock not refreshed for this long is taken over even if its process seems alive (hung, or on another machine). */
  lockStaleMs: number;
}

export const DEFAULT_SYNC_TUNING: SyncTuning = {
  pushConcurrency: 32,
  pullConcurrency: 32,
  initialConcurrency: 4,
  maxSendsPerEntry: 6,
  retry: DEFAULT_RETRY,
  unavailableMs: 2 * 60_000,
  deadlineMs: 10 * 60_000,
  lockStaleMs: 10 * 60_000,
};

export interface SyncEngineDeps {
  store: Store;
  outbox: Outbox;
  /** A client for the stored connection; throws AppError('not-connected') when there is none. */
  client: () => Promise<SoapClient>;
  /** Local wall-clock time, for the summary and the outbox. */
  now: () => string;
  emit: (event: AppEvent) => void;
  /** Where a failure that is a bug (not the service's, the network's or the user's) is reported for developers. */
  log?: (message: string, error?: unknown) => void;
  tuning?: Partial<SyncTuning>;
}

type SyncStop = { code: NonNullable<SyncSummary['errorCode']>; error: AppErrorData };
const stop = <C extends ErrorCode>(code: SyncStop['code'], error: C, ...[params = {}]: ErrorArgs<C>): SyncStop => ({
  code,
  error: { code: error, params: params },
});

/** How a failure shows in the summary, as data (code and parameters); `waiting` is the number of writes still in the outbox to be sent. */
export function classify(error: unknown, waiting = 0): SyncStop {
  if (error instanceof AppError) {
    const code =
      error.kind === 'auth' || error.kind === 'password-needed' || error.kind === 'not-connected' || error.kind === 'certificate'
        ? error.kind
        : error.kind === 'network'
          ? 'unavailable'
          : 'service';
    return { code, error: error.toData() };
  }
  if (error instanceof CancelledError) return stop('cancelled', 'syncCancelled', { waiting });
  if (error instanceof CertificateError) {
    return { code: 'certificate', error: { code: error.refusal.code, params: { ...error.refusal.params, waiting } } };
  }
  // A proxy that wants other credentials is no verdict of the service: the writes wait until it lets them through.
  // `detail` is the English of the command line and the log; the screens word the cause (`why`).
  if (error instanceof ProxyError) return stop('unavailable', 'proxyUnavailable', { waiting, detail: error.message, ...error.why });
  if (error instanceof RetriesExhausted || error instanceof PushGaveUp || (error instanceof CallError && error.transient)) {
    return stop('unavailable', 'serviceUnavailable', { waiting, detail: error.message, ...error.why });
  }
  // Any other answer the call could not use is worded as every call's is (refused credentials, a fault, an answer unusable).
  if (error instanceof CallError) return classify(callToAppError(error), waiting);
  return stop('service', 'syncUnexpected');
}

export class SyncEngine {
  private current: Promise<SyncSummary> | null = null;
  private stopRequested = false;
  private abort: AbortController | null = null;
  readonly tuning: SyncTuning;

  constructor(private readonly deps: SyncEngineDeps) {
    this.tuning = { ...DEFAULT_SYNC_TUNING, ...deps.tuning };
  }

  get running(): boolean {
    return this.current !== null;
  }

  /** Runs one sync; refuses with AppError('busy') while another runs (here or in another process). */
  sync(): Promise<SyncSummary> {
    if (this.current) throw new AppError('syncRunning');
    this.acquireLock();
    this.stopRequested = false;
    this.abort = new AbortController();
    // Every request in flight listens for the sync's cancellation: up to the concurrency cap of them.
    setMaxListeners(Math.max(this.tuning.pushConcurrency, this.tuning.pullConcurrency) * 2 + 10, this.abort.signal);
    const run = this.run().finally(() => {
      this.current = null;
      try {
        this.releaseLock();
      } catch {
        // A copy found damaged may not even read its lock; the damage is what the caller hears of.
      }
    });
    this.current = run;
    return run;
  }

  /** Cancels the sync running in this process, if one is; see stop(). Returns whether one was. */
  async cancel(): Promise<boolean> {
    if (!this.current) return false;
    await this.stop();
    return true;
  }

  /**
   * Cancels a running sync and waits for it to end: requests in flight are abandoned (a write among
   * them stays marked sent, so the next sync looks for its effect before sending it again), waits end
   * at once, and no new request starts. Nothing queued is lost.
   */
  async stop(): Promise<void> {
    this.stopRequested = true;
    this.abort?.abort();
    await this.current?.catch(() => undefined);
  }

  // ---- the cross-process lock ---------------------------------------------------------------------

  /** Whether another process (another window or the command line) holds a live sync lock on this file. */
  heldElsewhere(): boolean {
    const held = this.deps.store.settings.get('syncLock');
    if (!held || isCurrent(held)) return false;
    // On this machine the holder's death is seen at once; any lock, also another machine's (a shared
    // folder), whose heartbeat stopped for lockStaleMs is taken over.
    const stale = Date.now() - held.at > this.tuning.lockStaleMs || (held.host === hostname() && !holderAlive(held));
    return !stale;
  }

  private acquireLock(): void {
    const { store } = this.deps;
    store.transaction(() => {
      if (this.heldElsewhere()) throw new AppError('syncRunningElsewhere');
      store.settings.set('syncLock', { ...currentHolder(), at: Date.now() });
    });
  }

  private refreshLock(): void {
    const { store } = this.deps;
    try {
      store.settings.set('syncLock', { ...currentHolder(), at: Date.now() });
    } catch {
      // A database busy past its timeout skips this beat; the next one (or the sync's end) tries again.
      // Throwing here, in a timer, would take the whole process down.
    }
  }

  private releaseLock(): void {
    const { store } = this.deps;
    if (!store.isOpen) return;
    const held = store.settings.get('syncLock');
    if (held && isCurrent(held)) store.settings.set('syncLock', null);
  }

  // ---- one sync -------------------------------------------------------------------------------

  private progress(phase: SyncPhase, done: number, total: number): void {
    this.deps.emit({ type: 'sync-progress', phase, done, total });
  }

  /** One sync: the exchange with the service within its clocks, what went wrong said as data, and the end recorded. */
  private async run(): Promise<SyncSummary> {
    const summary = emptySummary(this.deps.now(), this.deps.store.settings.get('lastSyncAt') === null);
    this.deps.emit({ type: 'sync-started' });
    const clock = this.startClock();
    try {
      await this.exchange(summary, clock.budget, this.abort!.signal);
    } catch (e) {
      // A local copy damaged on disk is no outcome of the exchange: the core names it and offers recovery.
      if (isDamageError(e)) throw e;
      this.stopped(summary, e, clock.pastDeadline());
    } finally {
      clock.stop();
    }
    this.finish(summary);
    return summary;
  }

  /**
   * The sync's clocks: the lock's heartbeat, and the deadline, at which every request in flight is abandoned,
   * as on Cancel, and the sync says why; the retry budget the push and the pull share ends there too.
   */
  private startClock(): { budget: RetryBudget; pastDeadline: () => boolean; stop: () => void } {
    const heartbeat = setInterval(() => this.refreshLock(), Math.max(1000, Math.floor(this.tuning.lockStaleMs / 4)));
    heartbeat.unref();
    let pastDeadline = false;
    const deadline = setTimeout(() => {
      pastDeadline = true;
      this.abort?.abort();
    }, this.tuning.deadlineMs);
    deadline.unref();
    const budget = new RetryBudget(this.tuning.retry, {
      unavailableMs: this.tuning.unavailableMs,
      deadline: Date.now() + this.tuning.deadlineMs,
      signal: this.abort!.signal,
      onWait: (wait) => this.deps.emit({ type: 'sync-waiting', ...wait }),
    });
    return {
      budget,
      pastDeadline: () => pastDeadline,
      stop: () => {
        clearInterval(heartbeat);
        clearTimeout(deadline);
      },
    };
  }

  /** Push the outbox (when something waits), then pull everything; throws what stopped it. */
  private async exchange(summary: SyncSummary, budget: RetryBudget, signal: AbortSignal): Promise<void> {
    const { store, outbox, now } = this.deps;
    const client = (await this.deps.client()).withSignal(signal);
    if (outbox.all().some(isWaiting)) {
      const pushed = await pushOutbox(client, store, {
        concurrency: this.tuning.pushConcurrency,
        initialConcurrency: this.tuning.initialConcurrency,
        maxSendsPerEntry: this.tuning.maxSendsPerEntry,
        budget,
        now,
        onProgress: (phase, done, total) => this.progress(phase, done, total),
        shouldStop: () => this.stopRequested,
      });
      summary.pushed = pushed.pushed;
      summary.refused = pushed.refused;
      summary.conflicts = pushed.conflicts;
      if (pushed.error) throw pushed.error;
    }
    budget.throwIfCancelled();
    const pulled = await pull(client, store, {
      concurrency: this.tuning.pullConcurrency,
      initialConcurrency: this.tuning.initialConcurrency,
      budget,
      onProgress: (done, total) => this.progress('pull', done, total),
    });
    summary.pulled = pulled.listed;
    summary.received = pulled.changed;
    // The view is a function of the server copy and the outbox: it is recomputed on the next read.
    this.progress('rebuild', 1, 1);
    store.settings.set('lastSyncAt', now());
  }

  /** Why the sync stopped, as data, with the writes still waiting; a bug of ours is logged for developers. */
  private stopped(summary: SyncSummary, e: unknown, pastDeadline: boolean): void {
    const { store, outbox } = this.deps;
    const waiting = store.isOpen ? outbox.all().filter(isWaiting).length : 0;
    const { code, error } = pastDeadline
      ? stop('unavailable', 'syncPastDeadline', { seconds: Math.round(this.tuning.deadlineMs / 100) / 10, waiting })
      : classify(e, waiting);
    if (error.code === 'syncUnexpected') this.deps.log?.('Unexpected error during a sync', e);
    summary.error = error;
    summary.errorCode = code;
  }

  /** What the outbox holds now, the summary and the exchange recorded, a safety copy when something changed, and the end told. */
  private finish(summary: SyncSummary): void {
    const { store, outbox, now, emit } = this.deps;
    if (store.isOpen) {
      const left = outbox.all();
      summary.unknown = left.filter((e) => e.status === 'unknown').length;
      summary.undecidable = left.filter((e) => e.status === 'undecidable').length;
      summary.waiting = left.filter(isWaiting).length;
    }
    summary.finishedAt = now();
    if (store.isOpen) {
      store.settings.set('lastSync', summary);
      const outcome = summaryOutcome(summary);
      if (outcome) recordExchange(store, { outcome, at: summary.finishedAt, via: 'sync', error: summary.error });
    }
    if (store.isOpen && changedSomething(summary)) this.keepSafetyCopy();
    emit({ type: 'sync-finished', summary });
  }

  /**
   * A safety copy after a sync that changed the local copy: what the service brought, and the outbox as the
   * sync left it. Written in the background (the sync is over for the user); one that fails is logged, and the
   * sync's own outcome stands.
   */
  private keepSafetyCopy(): void {
    if (this.deps.store.options.noSafetyCopies) return;
    this.deps.store.inBackground('after-sync').catch((e: unknown) => this.deps.log?.('The safety copy after a sync could not be made', e));
  }
}

/** A summary before anything happened. */
const emptySummary = (startedAt: string, first: boolean): SyncSummary => ({
  startedAt,
  finishedAt: '',
  first,
  pushed: 0,
  refused: 0,
  conflicts: 0,
  unknown: 0,
  undecidable: 0,
  waiting: 0,
  pulled: null,
  received: null,
  error: null,
  errorCode: null,
});

/** A write still to be sent or decided: pending, or sent without an answer (unknown or undecidable). */
const isWaiting = (e: AnyEntry): boolean => e.status === 'pending' || isSentUnanswered(e.status);

/** Whether a sync changed the local copy: it delivered writes, or the pull brought something new. */
function changedSomething(s: SyncSummary): boolean {
  return s.pushed > 0 || (s.received !== null && Object.values(s.received).some((n) => n > 0));
}
