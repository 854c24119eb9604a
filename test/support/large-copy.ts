/**
 * A local copy as a decade of use leaves it, written straight through the store: accounts of one
 * currency, 40 categories in two levels, and random transactions over the years (random days and
 * hours, amounts and shops; a tenth of them transfers, written as the service does: both sides, the
 * same moment, opposite amounts, consecutive ids). Each account's balance is its opening balance plus
 * its transactions, as the service keeps it. For the reports benchmark and the register's browser test.
 */
import type { TransactionRow } from '../../src-main/core/store/rows';
import { Store } from '../../src-main/core/store/store';
import { formatDecimal, fromMinorUnits, parseDecimal, toMinorUnits } from '../../src-shared/money';
import { seededRandom } from './fault-proxy';

export interface LargeCopy {
  transactions: number;
  accounts: number;
  years: number;
  firstYear: number;
  seed?: number;
}

/** Rows go in by this many per transaction (a long single one would hold the whole WAL). */
const BATCH = 50_000;

export function fillLargeCopy(file: string, c: LargeCopy): void {
  const random = seededRandom(c.seed ?? 11);
  const store = new Store(file);
  try {
    const account = (a: number, balance: string) =>
      store.accounts.upsert(
        {
          id: a,
          name: `Account ${a}`,
          description: '',
          type: 2,
          currency: 203,
          isActive: true,
          locked: false,
          isHidden: false,
          ord: a,
          permission: 3,
          balance,
        },
        a,
      );
    /** Balances in cents, from an opening balance of 2,500.50. */
    const balances = new Map<number, bigint>();
    store.transaction(() => {
      for (let a = 1; a <= c.accounts; a++) {
        balances.set(a, 250_050n);
        account(a, '2500.5');
      }
      const all = [];
      for (let top = 1; top <= 8; top++) {
        all.push({ id: top * 100, name: `Group ${top}`, parentId: 0, position: top });
        for (let child = 1; child <= 4; child++) {
          all.push({ id: top * 100 + child, name: `Category ${top}.${child}`, parentId: top * 100, position: child });
        }
      }
      store.categories.replace({ all, favorites: [] });
    });
    const days = c.years * 365;
    let rows: TransactionRow[] = [];
    const flush = () => {
      store.transaction(() => store.transactions.upsert(rows));
      for (const r of rows) balances.set(r.accountId, balances.get(r.accountId)! + toMinorUnits(parseDecimal(r.amount)!, 2)!);
      rows = [];
    };
    for (let n = 1; n <= c.transactions; n++) {
      const day = new Date(Date.UTC(c.firstYear, 0, 1) + Math.floor(random() * days) * 86_400_000).toISOString().slice(0, 10);
      const paymentDate = `${day}T${String(Math.floor(random() * 24)).padStart(2, '0')}:15:00`;
      // Seven of ten payments go out (up to 5,000), three come in (up to 11,500): about as much in as out.
      const cents = random() < 0.7 ? -Math.floor(random() * 500_000) : Math.floor(random() * 1_150_000);
      const top = 1 + Math.floor(random() * 8);
      const categoryId = random() < 0.05 ? 0 : top * 100 + Math.floor(random() * 5);
      const accountId = 1 + (n % c.accounts);
      if (random() < 0.1 && n < c.transactions) {
        // A transfer: this row and the next, on another account.
        const size = String(Math.abs(cents) / 100);
        const other = 1 + ((n + 1 + Math.floor(random() * (c.accounts - 1))) % c.accounts);
        const target = other === accountId ? 1 + (accountId % c.accounts) : other;
        const side = { paymentDate, type: 3, description: `Transfer ${n}`, categoryId, userId: 1, userCreatedId: 1 };
        rows.push({ key: `id:${n}`, id: n, accountId, amount: `-${size}`, ...side });
        n++;
        rows.push({ key: `id:${n}`, id: n, accountId: target, amount: size, ...side });
      } else {
        rows.push({
          key: `id:${n}`,
          id: n,
          accountId,
          paymentDate,
          type: cents < 0 ? 2 : 1,
          amount: String(cents / 100),
          description: `Payment ${n} at shop ${Math.floor(random() * 500)}`,
          categoryId,
          userId: 1,
          userCreatedId: 1,
        });
      }
      if (rows.length >= BATCH) flush();
    }
    flush();
    store.transaction(() => {
      for (const [a, total] of balances) account(a, formatDecimal(fromMinorUnits(total, 2)));
    });
  } finally {
    store.close();
  }
}
