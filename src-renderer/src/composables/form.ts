/**
 * What every form shares: a busy flag, errors beside fields, one error for the form, and a submit that
 * turns a thrown AppError into the right one of the two.
 */
import type { GenericSchema } from 'valibot';
import { reactive, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { APP_METHODS, type AppError, type AppMethod } from '../../../src-shared/app-api';
import { fieldRules, fieldSchema, parse, ValidationError, type FieldRules } from '../../../src-shared/validate';
import type { AmountProblem } from '../format/amount';
import { codeText, decimalsText, splitFieldError, type Translate } from './errors';

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
        errors[split.field as F] = codeText(split.error, t);
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
 * amount (`problem` says why; `digits` is how many decimals the field takes, when known); an amount read
 * is then checked by `check`, the field's schema (useSchemaFields), which says whether it may be zero.
 */
export function useAmountError() {
  const t = useI18n().t as Translate;
  return (
    value: string | null,
    problem: AmountProblem | null,
    digits: number | undefined,
    check: (value: string) => string | null,
  ): string | null => {
    if (value === null) {
      if (problem === 'too-many-decimals' && digits !== undefined) return decimalsText(t, digits);
      return problem === 'invalid' ? t('form.amountInvalid') : t('form.amountRequired');
    }
    return check(value);
  };
}

/**
 * A form's fields checked by the app-API method's own schema (src-shared/app-api/methods.ts): the same
 * rules the core enforces, in the user's language, and their limits for the controls and hints
 * (maxlength, decimal places). Nothing of them is restated in the form.
 */
export function useSchemaFields(method: AppMethod) {
  const t = useI18n().t as Translate;
  const schema = APP_METHODS[method].input as GenericSchema;
  return {
    /** The field's limits: maxLength, min, max, maxScale... */
    rules: (field: string): FieldRules => fieldRules(schema, field),
    /** The text of the field's first problem, or null when the value passes the field's schema. */
    error(field: string, value: unknown): string | null {
      try {
        parse(fieldSchema(schema, field), value, field);
        return null;
      } catch (e) {
        if (e instanceof ValidationError) return codeText(e, t);
        throw e;
      }
    },
  };
}
