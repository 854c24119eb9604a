/**
 * One push's shared state, explicit: the bound on requests in flight, the push's view of the service, the
 * group commits, how often each write was sent, its progress and its result. The rounds (check-round.ts,
 * send-round.ts) work on it; push.ts schedules them.
 */
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { causeParams, FaultError, InvalidCredentialsError, type RetryBudget, type SoapClient } from '../soap-client';
import { CommitBatcher } from '../store/commit-batcher';
import type { Store } from '../store/store';
import { createAdaptiveLimiter, isTransientFailure, type AdaptiveLimiter } from '../util/adaptive-limiter';
import type { Probe } from '../write-kinds';
import { Outcomes } from './outcomes';
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

/** The service did not confirm a write after the most sends one sync allows. */
export class PushGaveUp extends Error {
  override name = 'PushGaveUp';
  readonly why = causeParams('gaveUp');
}

/** How a round ended: whether it settled any write, and the failure that cut it short, if one did. */
export interface RoundEnd {
  progressed: boolean;
  interrupted: unknown;
}

export class PushRun {
  /** One bound for every request of the push, reads for snapshots and checks included. */
  readonly limit: AdaptiveLimiter;
  readonly snapshot: ServerSnapshot;
  readonly pusher: WritePusher;
  readonly result: PushResult = { pushed: 0, refused: 0, conflicts: 0, error: null };
  readonly outcomes: Outcomes;
  /** Parallel writes share the durable commit of the marks that they are about to be sent. */
  readonly marks: CommitBatcher<{ entry: AnyEntry; probe: Probe }>;
  /** Sends of each write in this push. */
  readonly sends = new Map<number, number>();
  /** Writes done so far, and all there are to do as far as the last round could tell. */
  readonly progress = { done: 0, total: 0 };
  /** Whether one read has shown that the service takes the credentials. */
  credentialsChecked: boolean;

  constructor(
    readonly client: SoapClient,
    readonly store: Store,
    readonly options: PushOptions,
  ) {
    this.limit = createAdaptiveLimiter({
      initial: options.initialConcurrency ?? 4,
      max: options.concurrency,
      isOverload: isTransientFailure,
    });
    this.snapshot = new ServerSnapshot(client, options.budget, this.limit);
    this.pusher = new WritePusher(client, store, this.snapshot, this.limit);
    this.outcomes = new Outcomes(store, this.pusher, this.result, () => {
      const p = this.progress;
      options.onProgress?.('push', ++p.done, Math.max(p.total, p.done));
    });
    this.marks = new CommitBatcher(store, ({ entry, probe }) => store.outbox.markSent(entry.id, entry.input, probe, options.now()));
    this.credentialsChecked = store.outbox.all().every((e) => e.status !== 'pending' && !isSentUnanswered(e.status));
  }

  /**
   * The fault, if it refuses this one request rather than the caller: for a read a write needs, only a
   * fault about the caller's request counts (not the service's own trouble); for a write, any fault.
   * Refused credentials are checked with a read: when that works, only this request was refused, and the
   * rest of the outbox goes on instead of stopping at it on every sync.
   */
  async refusalOf(e: unknown, of: 'read' | 'write'): Promise<FaultError | null> {
    if (!(e instanceof FaultError) || (of === 'read' && e.fault.faultCode !== 'Client')) return null;
    if (!(e instanceof InvalidCredentialsError)) return e;
    return this.snapshot.freshAccounts().then(
      () => e,
      () => null,
    );
  }

  /**
   * The credentials are tried first with one read, which the writes' snapshots share (accounts are read
   * anyway): refused, they cost the service one failed login, where writes in flight (and the read that
   * tells a refused request from refused credentials) would each cost one more towards its lockout.
   */
  async checkCredentials(): Promise<RoundEnd> {
    if (this.credentialsChecked) return { progressed: false, interrupted: null };
    try {
      await this.snapshot.accounts();
      this.credentialsChecked = true;
      return { progressed: false, interrupted: null };
    } catch (e) {
      return { progressed: false, interrupted: e };
    }
  }
}
