/**
 * The table of write kinds: one definition per kind of write the app queues, checked by the compiler
 * to cover every OutboxKind. Everything that differs between kinds is asked of this table.
 */
import type { DataTable, OutboxKind } from '../../../src-shared/app-api';
import type { AnyEntry, OutboxEntry, RecordKind } from '../outbox/entries';
import { addAccount, editAccount } from './account';
import { addCategory, renameCategory } from './category';
import type { WriteKind, WriteKinds } from './kind';
import { addRefueling, editRefueling } from './refueling';
import { transfer } from './transfer';

export const WRITE_KINDS = {
  addAccount,
  editAccount,
  transfer,
  addCategory,
  renameCategory,
  addRefueling,
  editRefueling,
} as const satisfies WriteKinds;

/**
 * The definition of an entry's kind, typed for that entry. (Indexing the table with a union of kinds
 * loses which definition belongs to which entry; this is the one place that says they match.)
 */
/** What a write of this kind changes in what the screens show: its records, and the outbox. */
export const touchedBy = (kind: OutboxKind): DataTable[] => [...WRITE_KINDS[kind].touches, 'outbox'];

export function kindOf<K extends OutboxKind>(entry: OutboxEntry<K>): WriteKind<K>;
export function kindOf(entry: AnyEntry): WriteKind<OutboxKind>;
export function kindOf(entry: AnyEntry): WriteKind<OutboxKind> {
  return WRITE_KINDS[entry.kind] as unknown as WriteKind<OutboxKind>;
}

/** The ids an entry refers to, with their kinds. */
export function referencesOf(entry: AnyEntry): { field: string; kind: RecordKind; id: number }[] {
  const input = entry.input as unknown as Record<string, number>;
  return kindOf(entry).references.map(([field, kind]) => ({ field, kind, id: input[field]! }));
}

/** The record an edit changes ("account:12"), used to keep edits of one record in order; null for a create. */
export function editTarget(entry: AnyEntry): string | null {
  const edit = kindOf(entry).edit;
  return edit ? `${edit.record}:${(entry.input as { id: number }).id}` : null;
}

/** Kinds of records some write can refer to. */
export const REFERRED_KINDS: ReadonlySet<RecordKind> = new Set(
  Object.values(WRITE_KINDS).flatMap((k) => k.references.map(([, kind]) => kind)),
);

export * from './kind';
export { canWrite, accountFields } from './account';
export { transferProblems } from './transfer';
export { refuelingProblems, refuelingFields, type RefuelingProblem } from './refueling';
export { resolveChoices, merge, type MergeResult } from './merge';
