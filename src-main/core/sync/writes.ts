/**
 * One queued write against the service, whatever its kind: the push asks this facade, which asks the
 * write's kind (write-kinds/) for its request, its effect and how to store it. Storing the effect,
 * replacing temporary ids and removing the entry happen in one SQLite transaction.
 */
import type { AnyEntry } from '../outbox/entries';
import { learnedFacts } from '../outbox/learned';
import type { SoapClient } from '../soap-client';
import type { Store } from '../store/store';
import {
  EffectUndecidable,
  kindOf,
  referencesOf,
  type Call,
  type Effect,
  type Prepared,
  type Probe,
  type PushContext,
} from '../write-kinds';
import { outboxPort } from '../write-kinds/outbox-port';
import type { ServerSnapshot } from './snapshot';

export class WritePusher {
  private readonly ctx: PushContext;

  constructor(
    client: SoapClient,
    private readonly store: Store,
    private readonly snapshot: ServerSnapshot,
    /** Bounds the requests in flight, shared with the snapshot's reads. */
    private readonly limit: <T>(request: () => Promise<T>) => Promise<T> = (r) => r(),
  ) {
    this.ctx = { client, store, outbox: outboxPort(store), snapshot };
  }

  /** Decides what to do with a pending entry: the request to send (and its probe), a conflict, or nothing. */
  prepare(entry: AnyEntry): Promise<Prepared> {
    return kindOf(entry).prepare(entry, this.ctx);
  }

  /** Sends a prepared request and turns the answer into the write's effect. Throws CallError or EffectUndecidable. */
  send(entry: AnyEntry, call: Call, probe: Probe): Promise<Effect> {
    return this.limit(() => kindOf(entry).send(entry, call, probe, this.ctx));
  }

  /**
   * Looks on the service for the effect of a write whose outcome is unknown. Reads must be fresh (the
   * caller invalidated the snapshot). Returns the effect, or null when the write did not happen.
   */
  findEffect(entry: AnyEntry): Promise<Effect | null> {
    const kind = kindOf(entry);
    // A create without a probe (one an older copy brought back that could not say what the service held
    // before it): its effect cannot be told from what was there already.
    if (!kind.edit && entry.probe === null) {
      return Promise.reject(new EffectUndecidable(entry.message ?? 'What the service held before this write is not known.'));
    }
    // A write an older copy brought back that still refers to a record created offline: that create was not
    // found on the service (the check goes in order), so this write, sent only after it, cannot have happened.
    if (referencesOf(entry).some((r) => r.id < 0)) return Promise.resolve(null);
    return kind.findEffect(entry, this.ctx);
  }

  /**
   * Stores what the write did, replaces its temporary ids everywhere and removes it from the outbox,
   * in one transaction, then notes the effect in the snapshot.
   */
  finalize(entry: AnyEntry, effect: Effect): void {
    this.store.transaction(() => this.applyEffect(entry, effect));
    this.noteEffect(effect);
  }

  /**
   * The local half of finalize, to be run inside the caller's transaction (a group commit). The effect
   * is stored, and a created record's id replaces its temporary one, even if the entry was discarded
   * while its request was under way: the record exists on the service all the same.
   */
  applyEffect(entry: AnyEntry, effect: Effect): void {
    this.storeEffect(entry, effect);
    // An edit found done without a request was never marked sent, so the user may have changed it
    // meanwhile: the changed write stays queued. A sent write cannot change (it is 'unknown' until now).
    if (effect.kind !== 'nothing' || this.store.outbox.holds(entry.id, entry.input)) this.store.outbox.remove(entry.id);
  }

  /** Stores an effect without settling the entry (what an undecidable answer did show). */
  storeEffect(entry: AnyEntry, effect: Effect): void {
    const learned = learnedFacts(this.store);
    kindOf(entry).apply(entry, effect, { ...this.ctx, learned });
    this.store.settings.set('learned', learned);
  }

  /** Keeps this push's view of the service current with a write's effect. */
  noteEffect(effect: Effect): void {
    switch (effect.kind) {
      case 'account':
        this.snapshot.noteAccount(effect.account);
        break;
      case 'transactions':
        this.snapshot.noteTransactions(...effect.transactions);
        break;
      case 'categories':
        this.snapshot.noteCategories(effect.tree);
        break;
      case 'refueling':
        this.snapshot.noteRefueling(effect.refueling);
        break;
      case 'nothing':
        break;
    }
  }
}
