/**
 * AppErrors in the user's language: the headline by the error's kind, its text by its code with its
 * parameters (i18n `errorText.*`, error-texts.ts). Nothing here reads a message: the core sends codes.
 */
import { useI18n } from 'vue-i18n';
import type { AppError, AppErrorData } from '../../../src-shared/app-api';
import { errorField } from '../api';

/** The part of vue-i18n's `t` these helpers use. */
export type Translate = (key: string, named?: Record<string, unknown>, plural?: number) => string;

/** "At most 2 decimal places", or "a whole amount" when the currency has none. */
export function decimalsText(t: Translate, digits: number): string {
  return t('errorText.tooManyDecimals', { max: digits }, digits);
}

/**
 * An error's text by its code; a count of decimal places (`max`) picks the plural form. A network failure's
 * `detail` (the command line's English) gives way to its cause, worded here (`networkCause.*`); a record
 * the service sent (`record`) is named in the user's words (`recordWord.*`).
 */
export function codeText(error: Pick<AppErrorData, 'code' | 'params'>, t: Translate): string {
  const { max, cause, record } = error.params;
  const params = {
    ...error.params,
    ...(typeof cause === 'string' ? { detail: t(`networkCause.${cause}`, error.params) } : {}),
    ...(typeof record === 'string' ? { record: t(`recordWord.${record}`) } : {}),
  };
  return typeof max === 'number' ? t(`errorText.${error.code}`, params, max) : t(`errorText.${error.code}`, params);
}

export function useErrorText() {
  const { t } = useI18n();
  const translate = t as Translate;
  const title = (error: AppError) => t(`errors.${error.kind}`);
  /**
   * The detail worth showing beside the headline: the code's text. A bug's details stay in the log; a
   * refused login says all in the headline (the service tells no more, so that nobody learns which part
   * was wrong).
   */
  const detail = (error: AppError): string | null => {
    if (error.kind === 'internal' || error.kind === 'auth') return null;
    const text = codeText(error, translate);
    return text && text !== title(error) ? text : null;
  };
  return {
    /** The headline for an error's kind ("The service could not be reached."). */
    title,
    detail,
    /** The text of an error (or of an error as data, such as a check's problem), as shown beside the field it names too. */
    text: (error: Pick<AppErrorData, 'code' | 'params'>) => codeText(error, translate),
    /** One line for a notice: the field's message when it names one, else headline and detail. */
    line: (error: AppError) => (error.field ? codeText(error, translate) : [title(error), detail(error)].filter(Boolean).join(' ')),
  };
}

/** Splits an error into one shown beside a field (when it names one of `fields`) and one for the form. */
export function splitFieldError(error: AppError, fields: readonly string[]): { field: string | null; error: AppError } {
  const field = errorField(error);
  return { field: field && fields.includes(field) ? field : null, error };
}
