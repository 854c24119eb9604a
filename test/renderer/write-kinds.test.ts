// @vitest-environment happy-dom
/**
 * The screens' per-kind pieces follow from the write-kind table (src-shared/app-api/write-kinds.ts): every
 * kind of write is told in words and its conflicting fields shown by its record's field table, and the outbox
 * edits every kind with its record's form. A kind added to the table without its record's words or form fails
 * to compile; these check that what is derived is said and drawn.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, type Component } from 'vue';
import AccountForm from '../../src-renderer/src/components/AccountForm.vue';
import CategoryForm from '../../src-renderer/src/components/CategoryForm.vue';
import OutboxEditDialog from '../../src-renderer/src/components/OutboxEditDialog.vue';
import RefuelingForm from '../../src-renderer/src/components/RefuelingForm.vue';
import TransferForm from '../../src-renderer/src/components/TransferForm.vue';
import { useOutboxText } from '../../src-renderer/src/composables/outbox-text';
import { i18n } from '../../src-renderer/src/i18n';
import {
  OUTBOX_KINDS,
  WRITE_INPUT_SCHEMAS,
  WRITES,
  writeRecord,
  type OutboxEntryView,
  type OutboxKind,
  type WriteInputs,
  type WriteRecord,
} from '../../src-shared/app-api';
import { parse } from '../../src-shared/validate';
import { readBothLanguages } from '../support/messages';
import { standIn } from './stand-in';

beforeAll(readBothLanguages);

/** A write of every kind, as the outbox keeps it. */
const SAMPLES = {
  addAccount: { name: 'Cash', description: 'Wallet', type: 1, isActive: true, isHidden: false, locked: false, ord: 2, currency: 203 },
  editAccount: { id: 5, name: 'Cash', description: '', type: 2, isActive: true, isHidden: false, locked: true, ord: 0 },
  transfer: { sourceId: 5, targetId: 6, amount: '120.5', paymentDate: '2026-11-21T14:05:00', categoryId: 0, description: 'Savings' },
  addCategory: { name: 'Food', parentId: 0 },
  renameCategory: { id: 3, name: 'Meals' },
  addRefueling: {
    carId: 1,
    dateOfPurchase: '2026-11-21T14:05:00',
    tachometer: 120500,
    liter: '41.27',
    price: '1650.8',
    currency: 203,
    rate: '1',
    description: 'Shell',
  },
  editRefueling: {
    id: 7,
    carId: 1,
    dateOfPurchase: '2026-11-21T14:05:00',
    tachometer: 120500,
    liter: '41.27',
    price: '1650.8',
    currency: 203,
    rate: '25.125',
    description: '',
  },
} satisfies WriteInputs;

const entry = (kind: OutboxKind): OutboxEntryView => ({
  id: 1,
  kind,
  status: 'pending',
  message: null,
  createdAt: '2026-11-21T14:05:00',
  attempts: 0,
  input: SAMPLES[kind],
  targetId: null,
  dependents: [],
  conflicts: [],
});

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

/** useOutboxText as a component's setup has it. */
function outboxText(): ReturnType<typeof useOutboxText> {
  let text: ReturnType<typeof useOutboxText> | undefined;
  mount(defineComponent({ setup: () => ((text = useOutboxText()), () => null) }), { global: { plugins: [pinia, i18n] } });
  return text!;
}

const unfilled = /undefined|NaN|\{|outbox\./;

describe('the write-kind table', () => {
  it("has a sample of every kind here that passes that kind's input schema", () => {
    for (const kind of OUTBOX_KINDS) expect(parse(WRITE_INPUT_SCHEMAS[kind], SAMPLES[kind]), kind).toEqual(SAMPLES[kind]);
  });
});

describe('outbox entries in words', () => {
  it('tell every kind of write by its record, and name the kind', () => {
    const text = outboxText();
    for (const kind of OUTBOX_KINDS) {
      const words = `${text.title(entry(kind))}: ${text.describe(entry(kind))}`;
      expect(words, kind).not.toMatch(unfilled);
      expect(text.describe(entry(kind)).length, kind).toBeGreaterThan(2);
    }
    expect(text.describe(entry('renameCategory'))).toContain('Meals');
    expect(text.describe(entry('addRefueling'))).toContain('120,500 km');
  });

  it("show every field an edit changes by its record's field table: dates, currencies, decimals to their places, labels", () => {
    const text = outboxText();
    for (const kind of OUTBOX_KINDS.filter((k) => WRITES[k].edit)) {
      const input = SAMPLES[kind] as Record<string, string | number | boolean>;
      for (const [field, value] of Object.entries(input)) {
        expect(text.fieldValue(entry(kind), field, value), `${kind}.${field}`).not.toMatch(unfilled);
      }
    }
    const refueling = entry('editRefueling');
    expect(text.fieldValue(refueling, 'dateOfPurchase', '2026-11-21T14:05:00')).not.toContain('T14');
    expect(text.fieldValue(refueling, 'rate', '25.125')).toBe('25.125');
    expect(text.fieldValue(refueling, 'currency', 978)).toBe('€');
    expect(text.fieldValue(refueling, 'description', '')).toBe('—');
    expect(text.fieldValue(entry('editAccount'), 'locked', true)).toBe('Yes');
  });
});

describe('the outbox edit dialog', () => {
  const FORM_OF: Record<WriteRecord, Component> = {
    account: AccountForm,
    transfer: TransferForm,
    category: CategoryForm,
    refueling: RefuelingForm,
  };

  it('edits every kind of write with the form of its record, started from the write as queued', async () => {
    for (const kind of OUTBOX_KINDS) {
      const w = mount(OutboxEditDialog, { props: { entry: entry(kind) }, global: { plugins: [pinia, i18n] }, attachTo: document.body });
      await flushPromises();
      const form = w.findComponent(FORM_OF[writeRecord(kind)]);
      expect(form.exists(), kind).toBe(true);
      expect((form.props() as { initial?: unknown }).initial, kind).toEqual(SAMPLES[kind]);
      w.unmount();
    }
  });
});
