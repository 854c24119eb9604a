/** The arguments the outbox's commands share. */
import { UsageError } from '../../../src-node/cli';
import { integerArg } from '../values';

export const entryId = { value: '<id>', description: 'the outbox entry id', read: integerArg } as const;

export type Side = 'mine' | 'theirs';

/** `--field ord=mine`: a field of the record and the side whose value it keeps. */
export function fieldChoiceArg(text: string, what: string): { field: string; side: Side } {
  const match = /^([A-Za-z][A-Za-z0-9]*)=(mine|theirs)$/.exec(text.trim());
  if (!match) throw new UsageError(`${what} must be <field>=mine or <field>=theirs, not ${JSON.stringify(text)}.`);
  return { field: match[1]!, side: match[2] as Side };
}
