/** What every edit does the same way: its base, its merge with the service's record, its effect found. */
import type { OutboxKind } from '../../../src-shared/app-api';
import type { OutboxEntry } from '../outbox/entries';
import type { EditSpec, Effect, Fields, PushContext, Prepared } from './kind';
import { merge, pick } from './merge';

/** The record as it is now, or, for a replaced entry of the same record, as it was when the edit began. */
export function baseFor(fields: readonly string[], id: number, current: object, previous?: OutboxEntry): Fields {
  if (previous && previous.base && (previous.input as { id?: number }).id === id) return previous.base;
  return pick(current, fields);
}

const idOf = (entry: OutboxEntry): number => (entry.input as { id: number }).id;

/** The user's side of an edit, its base (a legacy entry without one counts as "everything changed"), and the merge. */
function mergeWith<K extends OutboxKind>(spec: EditSpec<K>, entry: OutboxEntry<K>, theirs: Fields) {
  const mine = pick(entry.input, spec.fields);
  return { mine, merged: merge(spec.fields, entry.base ?? theirs, mine, theirs) };
}

/** Sends the user's changed fields over the service's current values; a field changed on both sides is a conflict. */
export async function prepareEdit<K extends OutboxKind>(spec: EditSpec<K>, entry: OutboxEntry<K>, ctx: PushContext): Promise<Prepared> {
  const theirs = await spec.theirs(entry, ctx);
  if (theirs === null) return { action: 'send', call: spec.call(idOf(entry), pick(entry.input, spec.fields)), probe: null };
  const { merged } = mergeWith(spec, entry, theirs);
  if (merged.conflicts.length > 0) return { action: 'conflict', conflicts: merged.conflicts };
  if (merged.changed.every((f) => merged.values[f] === theirs[f])) return { action: 'done', effect: { kind: 'nothing' } };
  return { action: 'send', call: spec.call(idOf(entry), merged.values), probe: null };
}

/** An edit happened when the service's record holds every field the user changed. */
export async function findEditEffect<K extends OutboxKind>(
  spec: EditSpec<K>,
  entry: OutboxEntry<K>,
  ctx: PushContext,
): Promise<Effect | null> {
  const theirs = await spec.theirs(entry, ctx);
  if (theirs === null) return null;
  const { mine, merged } = mergeWith(spec, entry, theirs);
  return merged.changed.every((f) => theirs[f] === mine[f]) ? { kind: 'nothing' } : null;
}
