/** How a date is typed in the user's language ("dd.mm.rrrr hh:mm", "mm/dd/yyyy h:mm AM"), and what to say when a typed one cannot be read. */
import { useI18n } from 'vue-i18n';
import { inputPattern, type DateInputProblem } from '../format/date-input';
import { useLocale } from './locale';

export function useDatePattern(): (withTime: boolean) => string {
  const { t } = useI18n();
  const locale = useLocale();
  return (withTime) =>
    inputPattern(locale.value, withTime, { day: t('dateField.day'), month: t('dateField.month'), year: t('dateField.year') });
}

/** The error of a date field: null when it holds a date, else why not (empty where one is required, or unreadable). */
export function useDateError(): (value: string, problem: DateInputProblem | null, withTime: boolean, required: boolean) => string | null {
  const { t } = useI18n();
  const pattern = useDatePattern();
  return (value, problem, withTime, required) => {
    if (value) return null;
    if (problem === 'invalid') return t('dateField.invalid', { pattern: pattern(withTime) });
    return required ? t(withTime ? 'form.dateRequired' : 'form.dayRequired') : null;
  };
}
