// @vitest-environment happy-dom
/**
 * The forms as components (@vue/test-utils in happy-dom): the rules they show come from the app API's
 * schemas (limits as hints and attributes, errors in the user's language), an error the core sends lands
 * beside its field, and the keyboard meets the fields in the order of the receipt.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import AccountForm from '../../src-renderer/src/components/AccountForm.vue';
import CategoryForm from '../../src-renderer/src/components/CategoryForm.vue';
import RefuelingForm from '../../src-renderer/src/components/RefuelingForm.vue';
import TableFields from '../../src-renderer/src/components/TableFields.vue';
import { i18n } from '../../src-renderer/src/i18n';
import { useCarsStore } from '../../src-renderer/src/stores/cars';
import { AppError, APP_METHODS } from '../../src-shared/app-api';
import { fallbackOf } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';
import { fieldRules } from '../../src-shared/validate';
import { readBothLanguages } from '../support/messages';
import { standIn } from './stand-in';

beforeAll(readBothLanguages);

let pinia: ReturnType<typeof createPinia>;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  i18n.global.locale.value = 'en';
  standIn({ listRefuelings: async () => [], listAccounts: async () => ({ accounts: [], totals: [] }) });
});
afterEach(() => {
  i18n.global.locale.value = 'cs';
  document.body.innerHTML = '';
});

const global = () => ({ plugins: [pinia, i18n] });
/** The error shown beside the field whose control has this name. */
const errorOf = (wrapper: ReturnType<typeof mount>, name: string): string | null => {
  const control = wrapper.find(`[name="${name}"]`);
  const field = control.element.closest('.field');
  return field?.querySelector('.field-error')?.textContent?.trim() ?? null;
};

function refuelingForm(save: (input: unknown) => Promise<unknown> = async () => undefined, large = false) {
  const cars = useCarsStore();
  cars.cars = [{ carId: 1, name: 'Octavia', refuelings: 0, lastTachometer: null, lastDate: null, lastCurrency: null, pending: false }];
  return mount(RefuelingForm, {
    props: { initial: { carId: 1, currency: 203 }, submitLabel: 'Save', save, large },
    global: global(),
    attachTo: document.body,
  });
}

describe('the refueling form', () => {
  it("takes its limits from the refueling schema: decimals as a hint and for the amount field, the note's length", () => {
    const w = refuelingForm();
    const schema = APP_METHODS.addRefueling.input;
    expect(fieldRules(schema, 'liter').maxScale).toBe(3);
    expect(w.text()).toContain('Up to 3 decimal places.');
    expect(w.find('input[name="description"]').attributes('maxlength')).toBe(String(fieldRules(schema, 'description').maxLength));
    i18n.global.locale.value = 'cs';
    return flushPromises().then(() => expect(w.text()).toContain('Nejvýše 3 desetinná místa.'));
  });

  it("shows the schema's errors beside their fields before anything is sent", async () => {
    const sent: unknown[] = [];
    const w = refuelingForm(async (input: unknown) => void sent.push(input));
    await w.find('input[name="tachometer"]').setValue('120500');
    await w.find('input[name="liter"]').setValue('0');
    await w.find('input[name="price"]').setValue('1650.80');
    await w.find('input[name="description"]').setValue('x'.repeat(1001));
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(errorOf(w, 'liter')).toBe('The amount must be more than zero.');
    expect(errorOf(w, 'description')).toBe('Use at most 1,000 characters.');
    expect(errorOf(w, 'tachometer')).toBeNull();
    expect(sent).toEqual([]);
  });

  it("puts an error the core sends beside its field, in the user's language", async () => {
    i18n.global.locale.value = 'cs';
    const w = refuelingForm(async () => {
      throw new AppError('priceDecimals', { currency: 'CZK', max: 2 }, 'price');
    });
    await w.find('input[name="tachometer"]').setValue('120500');
    await w.find('input[name="liter"]').setValue('41,27');
    await w.find('input[name="price"]').setValue('1650,80');
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(errorOf(w, 'price')).toBe('Nejvýše 2 desetinná místa.');
  });

  it('draws every field of the refueling table, required where the field has no fallback, and sends each', async () => {
    const sent: Record<string, unknown>[] = [];
    const w = refuelingForm(async (input) => void sent.push(input as Record<string, unknown>));
    for (const field of [...REFUELING.sent, ...REFUELING.local]) {
      const control = w.find(`[name="${field}"]`);
      expect(control.exists(), field).toBe(true);
      if (control.attributes('type') === 'checkbox') continue;
      const required = fallbackOf(REFUELING.fields[field]) === undefined;
      expect(
        control.attributes('aria-required') === 'true' || control.element.closest('.field')?.querySelector('.field-required') !== null,
        field,
      ).toBe(required);
    }
    await w.find('input[name="tachometer"]').setValue('120500');
    await w.find('input[name="liter"]').setValue('41.27');
    await w.find('input[name="price"]').setValue('1650.80');
    await w.find('input[name="description"]').setValue('Shell');
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(Object.keys(sent[0]!).sort()).toEqual([...REFUELING.sent].sort());
    expect(sent[0]!.description).toBe('Shell');
  });

  it('meets the keyboard in the order of the receipt: car, odometer, litres, price, currency, date, note, partial', () => {
    const w = refuelingForm(async () => undefined, true);
    const order = w
      .findAll('input, select, button, textarea, summary')
      .filter((e) => !e.attributes('disabled') && e.attributes('tabindex') !== '-1' && e.attributes('type') !== 'hidden')
      .map((e) => e.attributes('name') ?? e.element.tagName.toLowerCase());
    const fields = order.filter((n) =>
      ['carId', 'tachometer', 'liter', 'price', 'currency', 'dateOfPurchase', 'description', 'partial', 'rate'].includes(n),
    );
    expect(fields).toEqual(['carId', 'tachometer', 'liter', 'price', 'currency', 'dateOfPurchase', 'description', 'partial', 'rate']);
    // At the pump the odometer has the focus as soon as the form shows.
    expect(document.activeElement?.getAttribute('name')).toBe('tachometer');
  });
});

describe('the account and category forms', () => {
  it("check names as the core does: required once trimmed, at most the schema's length", async () => {
    const initial = { name: '   ', description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 0 };
    const w = mount(AccountForm, {
      props: { initial, submitLabel: 'Save', save: async () => undefined },
      global: global(),
      attachTo: document.body,
    });
    expect(w.find('input[maxlength]').attributes('maxlength')).toBe(String(fieldRules(APP_METHODS.addAccount.input, 'name').maxLength));
    await w.find('form').trigger('submit');
    await flushPromises();
    expect(w.find('.field-error').text()).toBe('Fill this in.');

    const c = mount(CategoryForm, {
      props: { initial: { name: 'x'.repeat(101), parentId: 0 }, submitLabel: 'Add', save: async () => undefined },
      global: global(),
      attachTo: document.body,
    });
    await c.find('form').trigger('submit');
    await flushPromises();
    expect(errorOf(c, 'name')).toBe('Use at most 100 characters.');
  });
});

describe('the fields a record keeps here only', () => {
  it('draws a text mark with its label and hint, described by the hint, like the flags', () => {
    const i18nWith = createI18n({
      legacy: false,
      locale: 'en',
      messages: {
        en: {
          trip: {
            local: { station: 'Station', stationHint: 'Kept on this computer only.', partial: 'Partial', partialHint: 'Counted later.' },
          },
        },
      },
    });
    const w = mount(TableFields, {
      props: {
        record: 'trip',
        fields: [
          { name: 'partial', type: 'flag', local: true, required: false },
          { name: 'station', type: 'text', local: true, required: false },
        ],
        values: { partial: false, station: '' },
        errors: {},
        maxLength: () => 100,
      },
      global: { plugins: [i18nWith] },
    });
    for (const name of ['partial', 'station']) {
      const control = w.find(`[name="${name}"]`);
      const hint = w.find(`#${control.attributes('aria-describedby')}`);
      expect(hint.exists(), name).toBe(true);
    }
    expect(w.find(`#${w.find('[name="station"]').attributes('aria-describedby')}`).text()).toBe('Kept on this computer only.');
    expect(w.find('[name="station"]').attributes('maxlength')).toBe('100');
  });
});
