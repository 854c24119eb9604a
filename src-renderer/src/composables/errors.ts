/** AppErrors as friendly, localized text; field errors keyed by the field they name. */
import { useI18n } from 'vue-i18n';
import type { AppError } from '../../../src-shared/app-api';
import { errorField, errorMessage } from '../api';

/** The part of vue-i18n's `t` these helpers use. */
export type Translate = (key: string, named?: Record<string, unknown>, plural?: number) => string;

/** "At most 2 decimal places", or "a whole amount" when the currency has none. */
export function decimalsText(t: Translate, digits: number): string {
  return digits === 0 ? t('form.noDecimals') : t('form.tooManyDecimals', { n: digits }, digits);
}

/**
 * The core's validators and write rules speak English ("amount must be greater than zero"); the rule
 * behind each sentence is stable, so it is shown in the user's language. A sentence no rule matches
 * is shown as the core wrote it rather than hidden behind a vaguer one.
 */
export type Rule = [RegExp, (t: Translate, m: RegExpMatchArray) => string];
export const RULES: readonly Rule[] = [
  [/must not be empty/, (t) => t('form.required')],
  [/must be at most (\d+) characters/, (t, m) => t('form.tooLong', { max: Number(m[1]) })],
  [/must be greater than zero/, (t) => t('form.amountPositive')],
  [/must not be negative/, (t) => t('form.amountNotNegative')],
  [/at most (\d+) decimal places|allows \((\d+)\)/, (t, m) => decimalsText(t, Number(m[1] ?? m[2]))],
  [/must be a decimal number/, (t) => t('form.amountInvalid')],
  [/has more digits than can be sent exactly/, (t) => t('form.tooManyDigits')],
  [/must be a date and time/, (t) => t('form.dateInvalid')],
  [/must be a whole number/, (t) => t('form.wholeNumber')],
  [/must be at least (-?\d+)\.?$/, (t, m) => t('form.atLeast', { min: Number(m[1]) })],
  [/must be at most (-?\d+)\.?$/, (t, m) => t('form.atMost', { max: Number(m[1]) })],
  [/control characters/, (t) => t('form.controlCharacters')],
  [/named "(.*)" already exists/, (t, m) => t('categories.duplicate', { name: m[1] })],
  [/has refuelings waiting in the outbox/, (t) => t('cars.removePending')],
  [
    /^Nothing to import: of (\d+) row\(s\), (\d+) have problems and (\d+) are already there/,
    (t, m) => t('data.import.nothingToImport', { rows: m[1], problems: m[2], duplicates: m[3] }),
  ],
];

/** A sentence of the core in the user's language when one of `rules` knows it; else as the core wrote it. */
export function translateSentence(text: string, t: Translate, rules: readonly Rule[] = RULES): string {
  for (const [pattern, show] of rules) {
    const m = text.match(pattern);
    if (m) return show(t, m);
  }
  return text;
}

/** The message shown beside the field an error names, in the user's language where the rule is known. */
export function fieldErrorText(error: AppError, t: Translate): string {
  if (error.code === 'not-found') return t('errors.not-found');
  return translateSentence(errorMessage(error), t);
}

export function useErrorText() {
  const { t } = useI18n();
  const translate = t as Translate;
  const title = (error: AppError) => t(`errors.${error.code}`);
  /**
   * The detail worth showing beside the headline: the service's or validator's own message, in the
   * user's language where its rule is known. A bug's details stay in the log; a refused login says all
   * in the headline (the service tells no more, so that nobody learns which part was wrong).
   */
  const detail = (error: AppError): string | null => {
    if (error.code === 'internal' || error.code === 'auth') return null;
    const text = error.field ? fieldErrorText(error, translate) : errorMessage(error);
    return text && text !== title(error) ? text : null;
  };
  return {
    /** The headline for an error's code ("The service could not be reached."). */
    title,
    detail,
    /** The text beside the field the error names. */
    field: (error: AppError) => fieldErrorText(error, translate),
    /** One line for a notice: the field's message when it names one, else headline and detail. */
    line: (error: AppError) => (error.field ? fieldErrorText(error, translate) : [title(error), detail(error)].filter(Boolean).join(' ')),
  };
}

/** Splits an error into one shown beside a field (when it names one of `fields`) and one for the form. */
export function splitFieldError(error: AppError, fields: readonly string[]): { field: string | null; error: AppError } {
  const field = errorField(error);
  return { field: field && fields.includes(field) ? field : null, error };
}
