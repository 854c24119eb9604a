/**
 * Outbox entries: one write the user made, kept until the service has it. What each kind of write
 * refers to, creates and edits is described here once, for the repository (temporary id
 * replacement), the dependency rules, the local view and the push.
 */
import type { FieldConflict, OutboxKind, WriteInputOf } from '../../../src-shared/app-api';

export type RecordKind = 'account' | 'category' | 'refueling' | 'transaction';

/** Stored status; 'blocked' is never stored, it is derived from the entries an entry waits for. */
export type StoredStatus = 'pending' | 'unknown' | 'refused' | 'conflict';

export interface OutboxEntry<K extends OutboxKind = OutboxKind> {
  id: number;
  kind: K;
  input: WriteInputOf<K>;
  /** Edits: the edited fields as they were when the edit began. */
  base: Record<string, string | number | boolean> | null;
  /** Temporary ids of the records this write creates (a transfer creates two transactions). */
  createdIds: number[];
  status: StoredStatus;
  message: string | null;
  conflicts: FieldConflict[];
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  /** What existed on the service just before the last send (see sync/probes). */
  probe: unknown;
}

export type AnyEntry = { [K in OutboxKind]: OutboxEntry<K> }[OutboxKind];

/** Fields of each write's input that hold ids of other records, and which kind of record. */
export const REFERENCES: { readonly [K in OutboxKind]: readonly (readonly [keyof WriteInputOf<K> & string, RecordKind])[] } = {
  addAccount: [],
  editAccount: [['id', 'account']],
  transfer: [
    ['sourceId', 'account'],
    ['targetId', 'account'],
    ['categoryId', 'category'],
  ],
  addCategory: [['parentId', 'category']],
  renameCategory: [['id', 'category']],
  addRefueling: [],
  editRefueling: [['id', 'refueling']],
};

/** Edits: the record kind they edit and the fields the user can change (the merge works on these). */
export const EDITS = {
  editAccount: { record: 'account', fields: ['name', 'description', 'type', 'isActive', 'isHidden', 'locked', 'ord'] },
  renameCategory: { record: 'category', fields: ['name'] },
  editRefueling: {
    record: 'refueling',
    fields: ['carId', 'dateOfPurchase', 'tachometer', 'liter', 'price', 'currency', 'rate', 'description'],
  },
} as const satisfies Partial<Record<OutboxKind, { record: RecordKind; fields: readonly string[] }>>;

export type EditKind = keyof typeof EDITS;
export const isEditKind = (kind: OutboxKind): kind is EditKind => Object.hasOwn(EDITS, kind);

/** Number of temporary ids a write creates. */
export const CREATED_COUNT: { readonly [K in OutboxKind]: number } = {
  addAccount: 1,
  editAccount: 0,
  transfer: 2,
  addCategory: 1,
  renameCategory: 0,
  addRefueling: 1,
  editRefueling: 0,
};

/** The ids an entry refers to, with their kinds. */
export function referencesOf(entry: AnyEntry): { field: string; kind: RecordKind; id: number }[] {
  const input = entry.input as unknown as Record<string, number>;
  return (REFERENCES[entry.kind] as readonly (readonly [string, RecordKind])[]).map(([field, kind]) => ({ field, kind, id: input[field]! }));
}

/** The record an edit changes ("account:12"), used to keep edits of one record in order. */
export function editTarget(entry: AnyEntry): string | null {
  if (!isEditKind(entry.kind)) return null;
  return `${EDITS[entry.kind].record}:${(entry.input as { id: number }).id}`;
}

export const KIND_LABELS: { readonly [K in OutboxKind]: string } = {
  addAccount: 'new account',
  editAccount: 'account edit',
  transfer: 'transfer',
  addCategory: 'new category',
  renameCategory: 'category rename',
  addRefueling: 'new refueling',
  editRefueling: 'refueling edit',
};
