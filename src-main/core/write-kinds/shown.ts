/**
 * A queued write field by field, as `outbox show` prints it: for an edit, each field it may change with
 * its base (the value when the edit began), mine and theirs (the service's, as the conflict found it or
 * as the last sync left the local copy), the conflicting ones marked; for a create, the values it sends.
 */
import type { OutboxFieldView } from '../../../src-shared/app-api';
import type { AnyEntry } from '../outbox/entries';
import type { Store } from '../store/store';
import type { FieldValue } from './kind';
import { kindOf } from './index';

const valueOf = (record: object | null, field: string): FieldValue | null =>
  record && Object.hasOwn(record, field) ? ((record as Record<string, FieldValue>)[field] ?? null) : null;

export function fieldsShown(entry: AnyEntry, store: Store): OutboxFieldView[] {
  const edit = kindOf(entry).edit;
  const input = entry.input as unknown as Record<string, unknown>;
  if (!edit) {
    return Object.keys(input).map((field) => ({ field, base: null, mine: valueOf(input, field), theirs: null, conflict: false }));
  }
  const conflicts = new Map(entry.conflicts.map((c) => [c.field, c]));
  const stored = edit.stored(input.id as number, store);
  return edit.fields.map((field) => {
    const conflict = conflicts.get(field);
    return {
      field,
      base: valueOf(entry.base, field),
      mine: valueOf(input, field),
      theirs: conflict ? conflict.theirs : valueOf(stored, field),
      conflict: conflict !== undefined,
    };
  });
}
