/**
 * Field-level merge of an edit queued offline with the record as the service has it now. The edit
 * keeps the record as it was when the edit began (base). Fields the user did not change take the
 * service's current values; fields the user changed are sent, unless the service changed the same
 * field to something else meanwhile: that is a conflict for the user to resolve, never a silent
 * overwrite in either direction.
 */
import type { FieldConflict } from '../../../src-shared/app-api';
import type { ApiAccount2, ApiCarFuel } from '../../../src-shared/catalog';
import { EDITS, type AnyEntry, type EditKind } from '../outbox/entries';
import { decimalText } from '../store/rows';

export type FieldValue = string | number | boolean;
export type Fields = Record<string, FieldValue>;

export interface MergeResult {
  /** Every editable field, as it should be sent. */
  values: Fields;
  /** Fields the user changed (sent with the user's value). */
  changed: string[];
  conflicts: FieldConflict[];
}

export function merge(kind: EditKind, base: Fields, mine: Fields, theirs: Fields): MergeResult {
  const values: Fields = {};
  const changed: string[] = [];
  const conflicts: FieldConflict[] = [];
  for (const field of EDITS[kind].fields) {
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

/** The user's side of an edit: its input's editable fields. */
export function mineOf(entry: AnyEntry & { kind: EditKind }): Fields {
  const input = entry.input as unknown as Fields;
  const out: Fields = {};
  for (const f of EDITS[entry.kind].fields) out[f] = input[f]!;
  return out;
}

/** The base of an edit (a legacy entry without one counts as "everything changed"). */
export function baseOf(entry: AnyEntry & { kind: EditKind }, theirs: Fields): Fields {
  return entry.base ?? theirs;
}

// ---- the service's records in the edit inputs' terms ---------------------------------------------

export function accountFields(a: ApiAccount2): Fields {
  return { name: a.Name, description: a.Description, type: a.Type, isActive: a.IsActive, isHidden: a.IsHidden, locked: a.Locked, ord: a.Ord };
}

export function refuelingFields(r: ApiCarFuel): Fields {
  return {
    carId: r.Id_Car,
    dateOfPurchase: r.DateOfPurchase,
    tachometer: r.Tachometer,
    liter: decimalText(r.Liter, 'Liter'),
    price: decimalText(r.Price, 'Price'),
    currency: r.Currency,
    rate: decimalText(r.Rate, 'Rate'),
    description: r.Description,
  };
}

/**
 * Applies the user's choices to a conflicting edit: 'theirs' takes the service's value, 'mine' keeps
 * the user's value as a deliberate change of the service's value. Returns the new input and base.
 */
export function resolveChoices(
  entry: AnyEntry,
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
