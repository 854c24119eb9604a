/**
 * A problem of an imported row in the user's language: where (the column, or the field when no column
 * holds it) and what, by its code (src-shared/app-api/errors.ts).
 */
import type { ImportField, ImportProblem } from '../../../src-shared/app-api';
import { codeText, type Translate } from '../composables/errors';

export function importProblemText(problem: ImportProblem, t: Translate): string {
  const what = codeText(problem, t);
  if (problem.code === 'importNoColumn') {
    return t('errorText.importNoColumn', { field: t(`data.import.fields.${problem.params.field as ImportField}`) });
  }
  const { column } = problem;
  if (column) {
    const place = column.name
      ? t('data.import.problem.column', { name: column.name })
      : t('data.import.problem.columnNumber', { n: column.index + 1 });
    return `${place}: ${what}`;
  }
  return problem.field ? `${t(`data.import.fields.${problem.field}`)}: ${what}` : what;
}
