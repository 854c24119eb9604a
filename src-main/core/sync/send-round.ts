/**
 * The send round: every pending write that can go now, in parallel where independent. Writes that touch
 * the same record go in the order they were made (except writes of a kind that commutes); a write that
 * waits for another goes only after it succeeded. Before a request leaves, the outbox records in a
 * committed transaction that it may have been sent; the mark is made only if the entry still holds the
 * write prepared, so that a write the user changed or discarded meanwhile never goes in its old form.
 */
import type { OutboxKind } from '../../../src-shared/app-api';
import { analyzeDependencies, effectiveStatuses, type EntryDependencies } from '../outbox/dependencies';
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { CallError, InvalidCredentialsError } from '../soap-client';
import { EntryChanged } from '../store/outbox';
import { EffectUndecidable, kindOf, WRITE_KINDS, type Prepared } from '../write-kinds';
import type { WriteOutcome } from './outcomes';
import { PushGaveUp, type PushRun, type RoundEnd } from './push-run';

/** Waiting writes examined for one that may start now. */
const LOOKAHEAD = 256;

/** Where a write of the round is: waiting its turn, running, or settled this round (ok, or failed: not again this round). */
type WriteState = 'waiting' | 'running' | 'ok' | 'failed';

/** The outcome of a request, or the failure that ends the round (after a write that certainly did not happen is pending again). */
async function sendOutcome(run: PushRun, entry: AnyEntry, prepared: Extract<Prepared, { action: 'send' }>): Promise<WriteOutcome> {
  try {
    return { to: 'done', effect: await run.pusher.send(entry, prepared.call, prepared.probe) };
  } catch (e) {
    // Accepted, but what it did cannot be told from the answer: kept as sent, for the user to decide.
    if (e instanceof EffectUndecidable) return { to: 'undecidable', message: e.message, partial: e.partial };
    const refusal = await run.refusalOf(e, 'write');
    if (refusal) return { to: 'refused', message: refusal.message };
    // Refused credentials or a request that never left: the write certainly did not happen.
    if (e instanceof InvalidCredentialsError || (e instanceof CallError && !e.sent)) {
      await run.outcomes.settle(entry, { to: 'pending' }, { sent: true });
    }
    throw e;
  }
}

export class SendRound {
  private readonly deps: Map<number, EntryDependencies>;
  /** The writes to send this round, in outbox order. */
  private readonly queue: AnyEntry[];
  private readonly state: Map<number, WriteState>;
  private readonly keys: Map<number, string[]>;
  private readonly running = new Map<number, Promise<void>>();
  private progressed = false;
  private interrupted: unknown = null;

  constructor(private readonly run: PushRun) {
    const entries = run.store.outbox.all();
    this.deps = analyzeDependencies(entries);
    const statuses = effectiveStatuses(entries, this.deps);
    this.queue = entries.filter((e) => statuses.get(e.id)!.status === 'pending');
    this.state = new Map(this.queue.map((e) => [e.id, 'waiting']));
    this.keys = new Map(this.queue.map((e) => [e.id, kindOf(e).keys(e)]));
    run.progress.total = run.progress.done + this.queue.length + run.store.outbox.all().filter((e) => isSentUnanswered(e.status)).length;
  }

  /** Starts every write that may go, as slots free up, until none is running; a failure stops new starts. */
  async sendAll(): Promise<RoundEnd> {
    const { limit, options } = this.run;
    for (;;) {
      if (!this.interrupted && !options.shouldStop?.()) {
        for (const id of this.startable()) {
          if (this.running.size >= limit.limit) break;
          this.start(id);
        }
      }
      if (this.running.size === 0) break;
      await Promise.race(this.running.values());
    }
    return { progressed: this.progressed, interrupted: this.interrupted };
  }

  private start(id: number): void {
    this.state.set(id, 'running');
    const p = this.sendOne(id)
      .then((settled) => {
        this.state.set(id, settled);
        this.progressed = true;
      })
      .catch((e) => {
        this.state.set(id, 'failed');
        this.interrupted ??= e;
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, p);
  }

  /**
   * The writes that may start now. What holds each key in this scan: a running (or starting) write holds it
   * for everyone; a waiting write keeps it for the writes after it, except later writes of a kind that commutes.
   */
  private startable(): number[] {
    const held = new Map<string, 'running' | 'ordered' | OutboxKind>();
    const freeFor = (kind: OutboxKind, k: string) => {
      const h = held.get(k);
      return h === undefined || (h === kind && WRITE_KINDS[kind].commutes === true);
    };
    const out: number[] = [];
    let looked = 0;
    for (const e of this.queue) {
      const s = this.state.get(e.id)!;
      if (s === 'ok' || s === 'failed') continue;
      // A bounded look ahead: enough to fill the free slots, without rescanning a long outbox each time.
      if (++looked > LOOKAHEAD || out.length + this.running.size >= this.run.limit.limit) break;
      const waits = this.deps.get(e.id)!.waitsFor;
      if (
        s === 'waiting' &&
        waits.some((w) => this.state.get(w) === 'failed' || (!this.state.has(w) && this.run.store.outbox.get(w) !== null))
      ) {
        // It waits for a write that was refused, is in conflict, or is not ready this round.
        this.state.set(e.id, 'failed');
        continue;
      }
      const mine = this.keys.get(e.id)!;
      const free = mine.every((k) => freeFor(e.kind, k));
      const starts = s === 'waiting' && free && waits.every((w) => !this.state.has(w) || this.state.get(w) === 'ok');
      for (const k of mine) {
        if (s === 'running' || starts) held.set(k, 'running');
        else if (held.get(k) !== 'running') held.set(k, held.get(k) === undefined || held.get(k) === e.kind ? e.kind : 'ordered');
      }
      if (starts) out.push(e.id);
    }
    return out;
  }

  /** Prepares, marks, sends and settles one write: 'ok' when done, 'failed' when not (refused, in conflict, changed...). */
  private async sendOne(id: number): Promise<'ok' | 'failed'> {
    const { store, pusher, options, outcomes, sends } = this.run;
    const entry = store.outbox.get(id);
    if (!entry || entry.status !== 'pending') return 'failed';
    if ((sends.get(id) ?? 0) >= options.maxSendsPerEntry) {
      throw new PushGaveUp(
        `The service did not confirm write #${id} (${WRITE_KINDS[entry.kind].label}) after ${options.maxSendsPerEntry} attempts.`,
      );
    }
    let prepared: Prepared;
    try {
      prepared = await pusher.prepare(entry);
    } catch (e) {
      // Reading what the write needs was refused (an unknown account, say): so would the write be.
      const refusal = await this.run.refusalOf(e, 'read');
      if (!refusal) throw e;
      await outcomes.settle(entry, { to: 'refused', message: refusal.message }, { sent: false });
      return 'failed';
    }
    if (prepared.action === 'conflict') {
      await outcomes.settle(entry, { to: 'conflict', conflicts: prepared.conflicts }, { sent: false });
      return 'failed';
    }
    if (prepared.action === 'done') {
      await outcomes.settle(entry, { to: 'done', effect: prepared.effect }, { sent: false, batched: true });
      return 'ok';
    }
    // Durable before the request leaves: after a crash from here on, the write counts as sent.
    try {
      await this.run.marks.submit({ entry, probe: prepared.probe });
    } catch (e) {
      if (!(e instanceof EntryChanged)) throw e;
      // Discarded or changed by the user meanwhile: not sent; a changed write goes with the next sync.
      return 'failed';
    }
    sends.set(id, (sends.get(id) ?? 0) + 1);
    const outcome = await sendOutcome(this.run, entry, prepared);
    await outcomes.settle(entry, outcome, { sent: true, batched: true });
    return outcome.to === 'done' ? 'ok' : 'failed';
  }
}
