/**
 * The kinds of write the app queues, written once for every layer: each kind's record (its field table),
 * whether it makes a record or edits one, and its input schema, derived from that table (a create may leave
 * out its optional fields; an edit states every field it changes, and the record's id). The core's write-kind
 * table (src-main/core/write-kinds) defines the rest of each kind and is checked by the compiler to cover this
 * one; the screens find a kind's form and words by its record, the app API's write methods follow from it.
 */
import type { ObjectEntries } from 'valibot';
import { ACCOUNT } from '../records/account';
import { CATEGORY } from '../records/category';
import { createEntries, inputEntries, type AnyRecord, type Edited, type Sent } from '../records/fields';
import { REFUELING } from '../records/refueling';
import { TRANSFER } from '../records/transaction';
import { v } from '../validate';

/** A write that makes a record: the fields sent (`createEntries`: optional ones at their fallback when left out), and the marks. */
const create = <R extends AnyRecord, E extends ObjectEntries>(record: R, entries: E) =>
  ({ record, edit: false, input: v.object(entries) }) as const;

/** A write that changes a record: the fields an edit sends (`inputEntries`), the marks (unchanged when not given), its id. */
const edit = <R extends AnyRecord, E extends ObjectEntries>(record: R, entries: E) =>
  ({ record, edit: true, input: v.object({ ...entries, id: v.id() }) }) as const;

export const WRITES = {
  addAccount: create(ACCOUNT, createEntries(ACCOUNT, ACCOUNT.sent)),
  editAccount: edit(ACCOUNT, inputEntries(ACCOUNT, ACCOUNT.edited)),
  transfer: create(TRANSFER, createEntries(TRANSFER, TRANSFER.sent)),
  addCategory: create(CATEGORY, createEntries(CATEGORY, CATEGORY.sent)),
  renameCategory: edit(CATEGORY, inputEntries(CATEGORY, CATEGORY.edited)),
  addRefueling: create(REFUELING, createEntries(REFUELING, REFUELING.sent)),
  editRefueling: edit(REFUELING, inputEntries(REFUELING, REFUELING.edited)),
} as const;

export type OutboxKind = keyof typeof WRITES;
export const OUTBOX_KINDS = Object.keys(WRITES) as OutboxKind[];
/** The records the writes are of ('account', 'transfer', 'category', 'refueling'): the screens' forms and words are by record. */
export type WriteRecord = (typeof WRITES)[OutboxKind]['record']['name'];

type RecordOf<K extends OutboxKind> = (typeof WRITES)[K]['record'];
/** What the outbox keeps of a write: the fields it sends (an edit's with the record's id), never the marks. */
export type WriteInputOf<K extends OutboxKind> = (typeof WRITES)[K]['edit'] extends true
  ? Edited<RecordOf<K>> & { id: number }
  : Sent<RecordOf<K>>;
export type WriteInputs = { [K in OutboxKind]: WriteInputOf<K> };

/** The record a kind of write is of, and the kinds of write of a record. */
export const writeRecord = (kind: OutboxKind): WriteRecord => WRITES[kind].record.name;
export type KindsOf<R extends WriteRecord> = { [K in OutboxKind]: RecordOf<K>['name'] extends R ? K : never }[OutboxKind];
/** What the outbox keeps of any write of a record (a create's or an edit's). */
export type RecordWriteInput<R extends WriteRecord> = WriteInputOf<KindsOf<R>>;

/** Validators of each write kind's input, for entries edited in the outbox. */
export const WRITE_INPUT_SCHEMAS = Object.fromEntries(OUTBOX_KINDS.map((k) => [k, WRITES[k].input])) as {
  readonly [K in OutboxKind]: (typeof WRITES)[K]['input'];
};
