/** AppErrors as friendly, localized text; field errors keyed by the field they name. */
import { useI18n } from 'vue-i18n';
import type { AppError } from '../../../src-shared/app-api';
import { errorField, errorMessage } from '../api';

export function useErrorText() {
  const { t } = useI18n();
  return {
    /** The headline for an error's code ("The service could not be reached."). */
    title: (error: AppError) => t(`errors.${error.code}`),
    /** The detail worth showing beside the headline: the service's or validator's own message. */
    detail: (error: AppError): string | null => (error.code === 'internal' ? null : errorMessage(error) || null),
  };
}

/** Splits an error into one shown beside a field (when it names one of `fields`) and one for the form. */
export function splitFieldError(error: AppError, fields: readonly string[]): { field: string | null; error: AppError } {
  const field = errorField(error);
  return { field: field && fields.includes(field) ? field : null, error };
}
