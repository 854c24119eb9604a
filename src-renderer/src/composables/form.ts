/**
 * What every form shares: a busy flag, errors beside fields, one error for the form, and a submit that
 * turns a thrown AppError into the right one of the two.
 */
import { reactive, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import type { AppError } from '../../../src-shared/app-api';
import { signOf, type AmountProblem } from '../format/amount';
import { decimalsText, fieldErrorText, splitFieldError, type Translate } from './errors';

export function useFormState<F extends string>(fields: readonly F[]) {
  const t = useI18n().t as Translate;
  const errors = reactive<Partial<Record<F, string | null>>>({}) as Partial<Record<F, string | null>>;
  const formError = ref<AppError | null>(null);
  const busy = ref(false);

  function clear(): void {
    for (const f of fields) errors[f] = null;
    formError.value = null;
  }

  function hasErrors(): boolean {
    return fields.some((f) => errors[f]);
  }

  /** Moves the focus to the first field that shows an error. */
  function focusFirstError(): void {
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  /** Runs `validate` alone: true when every field is fine, else the first wrong field gets the focus. */
  function check(validate: () => void): boolean {
    clear();
    validate();
    if (!hasErrors()) return true;
    focusFirstError();
    return false;
  }

  /** Runs `validate` then `save`; a field error from the save lands beside its field. True when saved. */
  async function submit(validate: () => void, save: () => Promise<unknown>): Promise<boolean> {
    if (!check(validate)) return false;
    busy.value = true;
    try {
      await save();
      return true;
    } catch (e) {
      const split = splitFieldError(e as AppError, fields);
      if (split.field) {
        errors[split.field as F] = fieldErrorText(split.error, t);
        focusFirstError();
      } else formError.value = split.error;
      return false;
    } finally {
      busy.value = false;
    }
  }

  return { errors, formError, busy, clear, check, submit };
}

/**
 * The error of an amount field from what AmountInput read: `value` is null when the text is not an
 * amount (`problem` says why); `digits` is how many decimals the field takes, when known.
 */
export function useAmountError() {
  const t = useI18n().t as Translate;
  return (value: string | null, problem: AmountProblem | null, digits: number | undefined, rule: 'positive' | 'nonNegative'): string | null => {
    if (value === null) {
      if (problem === 'too-many-decimals' && digits !== undefined) return decimalsText(t, digits);
      return problem === 'invalid' ? t('form.amountInvalid') : t('form.amountRequired');
    }
    if (rule === 'positive' && signOf(value) <= 0) return t('form.amountPositive');
    if (rule === 'nonNegative' && signOf(value) < 0) return t('form.amountNotNegative');
    return null;
  };
}
