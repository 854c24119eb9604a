/**
 * A problem of an imported row as the core words it ("Column "Km": "12 000x" is not a number.", or
 * "The date: the date is missing." where no column is chosen), shown in the user's language: the place
 * and the sentence are translated apart; a sentence no rule knows is shown as the core wrote it.
 */
import { IMPORT_FIELD_NAMES, type ImportField } from '../../../src-shared/app-api';
import { RULES, translateSentence, type Rule, type Translate } from '../composables/errors';

const FIELD_BY_NAME = new Map(Object.entries(IMPORT_FIELD_NAMES).map(([field, name]) => [name, field as ImportField]));
const fieldText = (t: Translate, name: string | undefined) => {
  const field = name === undefined ? undefined : FIELD_BY_NAME.get(name);
  return field ? t(`data.import.fields.${field}`) : (name ?? '');
};

const VALUE_RULES: readonly Rule[] = [
  [/^(".*") is not a date such as/s, (t, m) => t('data.import.problem.notDate', { value: m[1] })],
  [/^(".*") is not a real date and time/s, (t, m) => t('data.import.problem.notRealDate', { value: m[1] })],
  [/^(".*") is not a whole number/s, (t, m) => t('data.import.problem.notWholeNumber', { value: m[1] })],
  [/^(".*") is not a number/s, (t, m) => t('data.import.problem.notNumber', { value: m[1] })],
  [/^(".*") is not a currency the app knows/s, (t, m) => t('data.import.problem.unknownCurrency', { value: m[1] })],
  [/^(".*") is neither yes nor no/s, (t, m) => t('data.import.problem.notYesNo', { value: m[1] })],
  [/^the (\w+) is missing/, (t) => t('data.import.problem.missing')],
  [/^No column is chosen for the (\w+)/, (t, m) => t('data.import.problem.noColumn', { field: fieldText(t, m[1]) })],
  [/^Car \d+ is not in your car list/, (t) => t('data.import.problem.unknownCar')],
  [/^The (?:litres|rate) (?:have|has) more than (\d+) decimal places/, (t, m) => t('data.import.problem.tooManyPlaces', { n: Number(m[1]) }, Number(m[1]))],
  ...RULES,
];

const PLACE = /^(?:Column "(.*?)"|Column (\d+)|The (\w+)): (.*)$/s;

export function importProblemText(problem: string, t: Translate): string {
  const m = PLACE.exec(problem);
  if (!m) return translateSentence(problem, t, VALUE_RULES);
  const place = m[1] !== undefined ? t('data.import.problem.column', { name: m[1] }) : m[2] !== undefined ? t('data.import.problem.columnNumber', { n: m[2] }) : fieldText(t, m[3]);
  return `${place}: ${translateSentence(m[4]!, t, VALUE_RULES)}`;
}
