/**
 * How the command line's English names an import's fields and words its problems ("The odometer: …",
 * "Column "Km": "12 000x" is not a number."): the refueling field table's `words`. The error texts
 * themselves take these words as a parameter where an import raises them (errors.ts imports no table).
 */
import type { FieldTable } from '../records/fields';
import { REFUELING } from '../records/refueling';
import type { ImportProblem } from './data-views';
import { englishWords } from './errors';

/** The English words of a field an import reads ("odometer"); a name that is none is said as it is. */
export function importFieldWords(field: string): string {
  const fields: FieldTable = REFUELING.fields;
  return (Object.hasOwn(fields, field) ? fields[field]!.words : undefined) ?? field;
}

/** A problem of an imported row in English words: "Column "Km": "12 000x" is not a number." */
export function importProblemText(p: ImportProblem): string {
  const words = englishWords(p.code, p.params);
  if (p.column) return `${p.column.name ? `Column "${p.column.name}"` : `Column ${p.column.index + 1}`}: ${words}`;
  if (p.field && p.code !== 'importNoColumn') return `The ${importFieldWords(p.field)}: ${words}`;
  return words;
}
