/**
 * Finding a create's effect after a lost answer compares the fields its record's table marks `match`, and only
 * those: a listed record that differs in any one of them is not the write's effect, one that differs elsewhere
 * still is (a service may keep those its own way). Each kind's matching function is the one findEffect uses.
 */
import { describe, expect, it } from 'vitest';
import { accountMatches } from '../../src-main/core/write-kinds/account';
import { categoryMatches } from '../../src-main/core/write-kinds/category';
import { refuelingMatches } from '../../src-main/core/write-kinds/refueling';
import { matchesTransfer } from '../../src-main/core/write-kinds/transfer';
import type { ApiAccount2, ApiCarFuel, ApiTransaction2 } from '../../src-shared/catalog';
import { ACCOUNT } from '../../src-shared/records/account';
import { CATEGORY } from '../../src-shared/records/category';
import type { AnyRecord, FieldSpec } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';
import { TRANSFER } from '../../src-shared/records/transaction';

type Values = Record<string, string | number | boolean>;

/** The record as the service lists it: each field the write sent under its wire name, decimals as numbers. */
function onWire(record: AnyRecord, values: Values, base: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, value] of Object.entries(values)) {
    const f: FieldSpec | undefined = record.fields[k];
    if (f?.wire) out[f.wire] = f.type === 'decimal' ? Number(value) : value;
  }
  return out;
}

/** Another value of the field's type, one that no service could have made of the first. */
function changed(f: FieldSpec, value: string | number | boolean): string | number | boolean {
  switch (f.type) {
    case 'dateTime':
      return `2026-11-23${String(value).slice(10)}`;
    case 'decimal':
      return String(Number(value) + 1);
    case 'text':
      return `${String(value)} other`;
    case 'flag':
      return !value;
    default:
      return Number(value) + 1;
  }
}

interface Case {
  record: AnyRecord & { matched: readonly string[] };
  sent: Values;
  /** Whether a record the service lists with these values (in the write's terms) is the write's effect. */
  matches: (listed: Values, sent: Values) => boolean;
}

const account = { Id: 9, UserAccountPermission: 3, Amount: 0 };
const CASES: Record<string, Case> = {
  account: {
    record: ACCOUNT,
    sent: { name: 'Cash', description: 'Wallet', type: 1, isActive: true, isHidden: false, locked: false, ord: 2, currency: 203 },
    matches: (listed, sent) => accountMatches(onWire(ACCOUNT, listed, account) as unknown as ApiAccount2, sent as never),
  },
  transfer: {
    record: TRANSFER,
    sent: { sourceId: 5, targetId: 6, amount: '120.5', paymentDate: '2026-11-21T14:05:00', categoryId: 4, description: 'Savings' },
    // The source's side: the amount negative.
    matches: (listed, sent) => {
      const t = onWire(
        TRANSFER,
        { ...listed, amount: `-${String(listed.amount)}` },
        { Id: 30, Id_Account: 5, Type: 3, Id_User: 1, Id_UserCreated: 1 },
      );
      return matchesTransfer(t as unknown as ApiTransaction2, sent as never);
    },
  },
  category: {
    record: CATEGORY,
    sent: { name: 'Food', parentId: 3 },
    matches: (listed, sent) => categoryMatches({ id: 8, position: 0, ...listed } as never, sent as never),
  },
  refueling: {
    record: REFUELING,
    sent: {
      carId: 1,
      dateOfPurchase: '2026-11-21T14:05:00',
      tachometer: 120500,
      liter: '41.27',
      price: '1650.8',
      currency: 203,
      rate: '1',
      description: 'Shell',
    },
    matches: (listed, sent) =>
      refuelingMatches(onWire(REFUELING, listed, { Id: 40, Id_UserCreated: 1 }) as unknown as ApiCarFuel, sent as never),
  },
};

describe('the effect of a create whose answer was lost', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(`${name}: is told by every field its table marks, and by nothing else`, () => {
      expect(c.record.matched.length, name).toBeGreaterThan(0);
      expect(c.matches(c.sent, c.sent), 'the record as sent').toBe(true);
      for (const k of Object.keys(c.sent)) {
        const listed = { ...c.sent, [k]: changed(c.record.fields[k]!, c.sent[k]!) };
        expect(c.matches(listed, c.sent), `${name}.${k} changed`).toBe(!c.record.matched.includes(k));
      }
    });
  }

  it('finds it where the service wrote the date shifted by a zone, kept a name without spaces, or changed its case', () => {
    const r = CASES.refueling!;
    expect(r.matches({ ...r.sent, dateOfPurchase: '2026-11-21T15:05:00' }, r.sent)).toBe(true);
    expect(r.matches({ ...r.sent, liter: '41.270' }, r.sent)).toBe(true);
    const a = CASES.account!;
    expect(a.matches({ ...a.sent, name: ' Cash ' }, a.sent)).toBe(true);
    expect(a.matches({ ...a.sent, description: ' Wallet ' }, a.sent)).toBe(false);
    const c = CASES.category!;
    expect(categoryMatches({ id: 8, position: 0, name: 'FOOD', parentId: 3 }, { name: 'Food', parentId: 3 })).toBe(false);
    expect(categoryMatches({ id: 8, position: 0, name: 'FOOD', parentId: 3 }, { name: 'Food', parentId: 3 }, true)).toBe(true);
    expect(c.matches(c.sent, c.sent)).toBe(true);
  });
});
