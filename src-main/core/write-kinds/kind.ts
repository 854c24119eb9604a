/**
 * What one kind of write is, written once: everything the app does with it from the form to the
 * service and back. Each kind (write-kinds/<record>.ts) fills this shape and write-kinds/index.ts
 * puts them in one table the compiler checks for every OutboxKind; the outbox, the local view, the
 * push and the screens ask the table, never switch over kinds themselves.
 */
import type { DataTable, FieldConflict, OutboxKind, WriteInputOf } from '../../../src-shared/app-api';
import type { ApiAccount2, ApiCarFuel, ApiCategoryTree, ApiTransaction2, OperationName } from '../../../src-shared/catalog';
import type { MarkedRecord } from '../../../src-shared/records/fields';
import type { OutboxEntry, RecordKind } from '../outbox/entries';
import type { LearnedFacts } from '../outbox/learned';
import type { ViewState } from '../outbox/view-state';
import type { SoapClient } from '../soap-client';
import type { Store } from '../store/store';
import type { ServerSnapshot } from '../sync/snapshot';

export type FieldValue = string | number | boolean;
export type Fields = Record<string, FieldValue>;

/** One request to the service. */
export interface Call {
  operation: OperationName;
  params: Record<string, unknown>;
}

/** What a write did on the service. */
export type Effect =
  | { kind: 'account'; account: ApiAccount2 }
  | { kind: 'transactions'; transactions: ApiTransaction2[]; balances: ApiAccount2[] | null }
  | { kind: 'categories'; tree: ApiCategoryTree; createdId: number | null }
  | { kind: 'refueling'; refueling: ApiCarFuel }
  /** An edit whose values the service already has: nothing to send. */
  | { kind: 'nothing' };

/**
 * What existed on the service just before a write was sent, so that after an unknown outcome its
 * effect can be told apart from what was there already. Each kind writes and reads its own shape; an
 * edit needs none (it is decided by comparing values), a create always has one when it is sent.
 */
export type Probe = Record<string, unknown> | null;

export type Prepared =
  { action: 'send'; call: Call; probe: Probe } | { action: 'conflict'; conflicts: FieldConflict[] } | { action: 'done'; effect: Effect };

/**
 * The service's lists cannot show whether a write whose outcome is unknown happened: the write becomes
 * undecidable, with this message for the user, and is never sent again without the user's word. `partial`
 * is what the answer did show, stored all the same.
 */
export class EffectUndecidable extends Error {
  override name = 'EffectUndecidable';
  constructor(
    message: string,
    readonly partial: Effect | null = null,
  ) {
    super(message);
  }
}

/** What checking a write against the local view needs. */
export interface CheckContext {
  state: ViewState;
  store: Store;
  /** The service's id for an id a screen passes (a temporary id whose create has since succeeded). */
  resolve(id: number): number;
  /** For a replaced entry (fixing a refused write): the entry as it was. */
  previous?: OutboxEntry;
}

export interface Checked<K extends OutboxKind> {
  input: WriteInputOf<K>;
  /** Edits: the edited fields as they are when the edit begins. */
  base: Fields | null;
  /** The id of the record an edit changes (the write's result for the screens). */
  targetId?: number;
}

/**
 * What a kind needs of the outbox: a port the write kinds own (outbox-port.ts puts it over the local copy),
 * so that a kind never names the outbox's tables, and the outbox never the kinds.
 */
export interface OutboxPort {
  /** Records of this kind this app created on the service: an unknown outcome is never matched to one of them. */
  ownIds(kind: RecordKind): Set<number>;
  /** Remembers a record this app created on the service. */
  markOwn(kind: RecordKind, id: number): void;
  /**
   * A create succeeded: the service's id replaces the temporary one everywhere (the queued writes that refer
   * to it, the record's marks), and the pair is remembered so that an id a screen still holds keeps working.
   */
  replaceTempId(kind: RecordKind, tempId: number, realId: number): void;
}

/** What the push side of a kind works with. */
export interface PushContext {
  client: SoapClient;
  store: Store;
  outbox: OutboxPort;
  /** The service's lists as this push sees them (read once, kept current with its own answers). */
  snapshot: ServerSnapshot;
}

/** Where storing an effect happens: inside the caller's transaction, with the facts being learned. */
export interface ApplyContext extends PushContext {
  learned: LearnedFacts;
}

/** An edit: the record it changes and the fields the user can change (the merge works on these). */
export interface EditSpec<K extends OutboxKind> {
  record: RecordKind;
  fields: readonly (keyof WriteInputOf<K> & string)[];
  /** The service's current record in the edit input's terms; null when the service does not list it. */
  theirs(entry: OutboxEntry<K>, ctx: PushContext): Promise<Fields | null>;
  /** The request that sends these values. */
  call(id: number, values: Fields): Call;
  /** The record as the last sync left it in the local copy, in the edit input's terms; null when the copy has none. */
  stored(id: number, store: Store): Fields | null;
}

export interface WriteKind<K extends OutboxKind> {
  /** The write in a few words, for messages ("new account"). */
  label: string;
  /** What the screens show that it changes (besides the outbox): they reload only those. */
  touches: readonly DataTable[];
  /** Kinds of the records it creates, one temporary id each (a transfer creates two transactions). */
  creates: readonly RecordKind[];
  /** Fields of its input that hold ids of other records (a temporary id makes it wait for that create). */
  references: readonly (readonly [keyof WriteInputOf<K> & string, RecordKind])[];
  /**
   * The record whose marks (the local fields of its table) the write's input may carry: they are set on
   * the record it creates or edits, in the same transaction, and never sent. None: the write has no marks.
   */
  marks?: MarkedRecord;
  /** For an edit: what it edits and how it merges with the service's record; null for a create. */
  edit: EditSpec<K> | null;
  /**
   * Records it touches: writes sharing a key never run at once, and go in the order they were made,
   * except two writes of a kind that `commutes`.
   */
  keys(entry: OutboxEntry<K>): string[];
  /**
   * Two writes of this kind on the same keys give the same result in either order (two transfers on
   * one account): a later one may go while an earlier one waits, though never at the same time.
   */
  commutes?: true;

  /** Checks a new write against the local view as the service would, with ids resolved; throws AppError. */
  check(raw: WriteInputOf<K>, ctx: CheckContext): Checked<K>;
  /** Lays the queued write over the view the screens see. */
  lay(state: ViewState, entry: OutboxEntry<K>): void;

  /** The request to send with its probe, a conflict to show, or nothing to do. Reads through the snapshot. */
  prepare(entry: OutboxEntry<K>, ctx: PushContext): Promise<Prepared>;
  /** Sends the request and reads the answer into the write's effect. Throws CallError or EffectUndecidable. */
  send(entry: OutboxEntry<K>, call: Call, probe: Probe, ctx: PushContext): Promise<Effect>;
  /**
   * For a write an older local copy brings back (restore, recovery): what the service held as that copy last
   * saw it, as this kind's probe, so that findEffect decides it as it decides a lost answer (see
   * outbox/revive.ts). An edit, decided by comparing values, needs none (null); a create gets null where the
   * copy cannot say, and is then left to the user.
   */
  probeFromCopy(entry: OutboxEntry<K>, store: Store): Probe;
  /** After an unknown outcome, on fresh reads: the write's effect, null when it did not happen; or EffectUndecidable. */
  findEffect(entry: OutboxEntry<K>, ctx: PushContext): Promise<Effect | null>;
  /** Stores the effect and replaces the temporary ids it settles; runs inside the caller's transaction. */
  apply(entry: OutboxEntry<K>, effect: Effect, ctx: ApplyContext): void;
}

/** The table's type: one definition for every kind of write. */
export type WriteKinds = { readonly [K in OutboxKind]: WriteKind<K> };
