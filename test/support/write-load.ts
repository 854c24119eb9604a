/**
 * A write load for kill tests of the service: writes of random kinds (transfers, new accounts,
 * refuelings), each marked with a text of its own, whose answers are recorded; and the check that the
 * store holds every write that was answered, exactly once and as answered, and of every write that was
 * not answered all or nothing, with every balance the exact sum of its transactions.
 */
import { expect } from 'vitest';
import type { Credentials } from '../../src-shared/catalog';
import { call, type Target } from './http';

export type WriteKind = 'transfer' | 'account' | 'refueling';
export const WRITE_KINDS: readonly WriteKind[] = ['transfer', 'transfer', 'account', 'refueling'];

export interface Sent {
  kind: WriteKind;
  marker: string;
  /** The ids the answer named; undefined when no answer came. */
  answered?: number[];
  amountMinor?: number;
}

/** One write of `sent.kind`, marked with `sent.marker`, by `user` on its `accounts`; records the answer when one comes. */
export async function writeOne(
  target: Target,
  user: Credentials,
  accounts: readonly number[],
  random: () => number,
  sent: Sent,
): Promise<void> {
  const marker = sent.marker;
  if (sent.kind === 'transfer') {
    const source = accounts[Math.floor(random() * accounts.length)]!;
    const target2 = accounts.filter((a) => a !== source)[Math.floor(random() * (accounts.length - 1))]!;
    const cents = 1 + Math.floor(random() * 99_999);
    sent.amountMinor = cents;
    const pair = await call(target, 'soap12', 'AddTranferToOtherAccount', user, {
      Amount: cents / 100,
      Description: marker,
      Id_SourceAccount: source,
      Id_TargetAccount: target2,
      Id_Category: 0,
      PaymentDate: '2026-11-20T10:00:00',
    });
    sent.answered = [pair.Transaction1.Id, pair.Transaction2.Id];
  } else if (sent.kind === 'account') {
    const account = await call(target, 'soap11', 'AddAccount', user, {
      Name: marker,
      Description: '',
      Currency: 203,
      Type: 1,
      IsActive: true,
      IsHidden: false,
      Locked: false,
      Ord: 0,
    });
    sent.answered = [account.Id];
  } else {
    const refueling = await call(target, 'soap12', 'EditCarFuel', user, {
      CarId: 1,
      Id_CarFuel: 0,
      Liter: 40.5,
      Price: 1234.5,
      Tachometer: 1000,
      DateOfPurchase: '2026-11-20T10:00:00',
      Currency: 203,
      Description: marker,
      Rate: 1,
    });
    sent.answered = [refueling.Id];
  }
}

/** Rows of a query of the store from outside the service (`?` for each parameter). */
export type Sql = <R>(query: string, params?: unknown[]) => Promise<R[]>;

/** The store after a kill, checked against what was sent; the counts of answered and unanswered writes. */
export async function checkWrites(sql: Sql, sent: readonly Sent[]): Promise<{ answered: number; unanswered: number }> {
  const byMarker = async (query: string) => {
    const rows = await sql<{ marker: string; id: number; amount_minor?: number }>(query);
    const map = new Map<string, { id: number; amount_minor?: number }[]>();
    for (const r of rows) map.set(r.marker, [...(map.get(r.marker) ?? []), r]);
    return map;
  };
  const stored: Record<WriteKind, Map<string, { id: number; amount_minor?: number }[]>> = {
    transfer: await byMarker('SELECT description AS marker, id, amount_minor FROM transactions ORDER BY id'),
    account: await byMarker('SELECT name AS marker, id FROM accounts ORDER BY id'),
    refueling: await byMarker('SELECT description AS marker, id FROM refuelings ORDER BY id'),
  };
  let answered = 0;
  for (const s of sent) {
    const rows = stored[s.kind].get(s.marker) ?? [];
    const ids = rows.map((r) => r.id);
    const whole = s.kind === 'transfer' ? 2 : 1;
    if (s.answered) {
      answered += 1;
      expect(ids, `${s.kind} ${s.marker} was answered`).toEqual(s.answered);
    } else {
      expect([0, whole], `${s.kind} ${s.marker} unanswered: whole or absent`).toContain(ids.length);
    }
    if (s.kind === 'transfer' && ids.length === 2) expect(rows.map((r) => r.amount_minor)).toEqual([-s.amountMinor!, s.amountMinor!]);
  }
  const wrong = await sql(
    'SELECT a.id FROM accounts a WHERE a.balance_minor != (SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t WHERE t.account_id = a.id)',
  );
  expect(wrong, 'balances that are not the sum of their transactions').toEqual([]);
  return { answered, unanswered: sent.length - answered };
}
