/**
 * Field-level merge of an edit queued offline with the record as the service has it now. The edit
 * keeps the record as it was when the edit began (base). Fields the user did not change take the
 * service's current values; fields the user changed are sent, unless the service changed the same
 * field to something else meanwhile: that is a conflict for the user to resolve, never a silent
 * overwrite in either direction.
 */
import type { FieldConflict } from '../../../src-shared/app-api';
import type { OutboxEntry } from '../outbox/entries';
import type { Fields } from './kind';

export interface MergeResult {
  /** Every editable field, as it should be sent. */
  values: Fields;
  /** Fields the user changed (sent with the user's value). */
  changed: string[];
  conflicts: FieldConflict[];
}

export function merge(fields: readonly string[], base: Fields, mine: Fields, theirs: Fields): MergeResult {
  const values: Fields = {};
  const changed: string[] = [];
  const conflicts: FieldConflict[] = [];
  for (const field of fields) {
    const b = base[field]!;
    const m = mine[field]!;
    const t = theirs[field]!;
    if (m === b) {
      values[field] = t;
    } else if (t === b || t === m) {
      values[field] = m;
      changed.push(field);
    } else {
      values[field] = m;
      changed.push(field);
      conflicts.push({ field, base: b, mine: m, theirs: t });
    }
  }
  return { values, changed, conflicts };
}

/** The given fields of a record (an edit's input, a view's record). */
export function pick(record: object, fields: readonly string[]): Fields {
  const r = record as Fields;
  const out: Fields = {};
  for (const f of fields) out[f] = r[f]!;
  return out;
}

/**
 * Applies the user's choices to a conflicting edit: 'theirs' takes the service's value, 'mine' keeps
 * the user's value as a deliberate change of the service's value. Returns the new input and base.
 */
export function resolveChoices(
  entry: OutboxEntry,
  choices: Partial<Record<string, 'mine' | 'theirs'>>,
): { input: Record<string, unknown>; base: Fields } {
  const input = { ...(entry.input as unknown as Record<string, unknown>) };
  const base: Fields = { ...(entry.base ?? {}) };
  for (const c of entry.conflicts) {
    const choice = choices[c.field];
    if (choice === 'theirs') input[c.field] = c.theirs;
    base[c.field] = c.theirs;
  }
  return { input, base };
}
