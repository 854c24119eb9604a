/**
 * Accounts as the service last listed them, with what the store keeps beside each: `listed` 0 once the
 * service no longer lists one (it stays, with its history, in case a glitch of the service hid it), and
 * `position`, its place in the service's list.
 */
import { add, formatDecimal, parseDecimal } from '../../../src-shared/money';
import { ACCOUNT } from '../../../src-shared/records/account';
import { bool, columnList, columnsOf, int, paramList, rowParams, rowReader, updateList, type Prepare, type Row } from './record-sql';
import type { AccountRow } from './rows';

const ACCOUNT_COLUMNS = columnsOf(ACCOUNT, ACCOUNT.stored);
const UPSERT_ACCOUNT = `INSERT INTO accounts (${columnList(ACCOUNT_COLUMNS)}, listed, position)
  VALUES (${paramList(ACCOUNT_COLUMNS)}, 1, @position)
  ON CONFLICT (id) DO UPDATE SET ${updateList(ACCOUNT_COLUMNS.filter((c) => c.param !== 'id'))}, listed = 1,
    position = CASE WHEN @keepPosition THEN accounts.position ELSE excluded.position END`;
const accountOf = rowReader<AccountRow>(ACCOUNT, ACCOUNT.stored);

/** An account as stored, listed or not. */
export interface StoredAccount {
  row: AccountRow;
  listed: boolean;
}

export class Accounts {
  constructor(private readonly sql: Prepare) {}

  /** Accounts the service lists, by Ord and then the service's order. */
  list(): AccountRow[] {
    return (this.sql('SELECT * FROM accounts WHERE listed = 1 ORDER BY ord, position, id').all() as Row[]).map(accountOf);
  }

  /** A listed account. */
  get(id: number): AccountRow | null {
    const r = this.sql('SELECT * FROM accounts WHERE id = ? AND listed = 1').get(id) as Row | undefined;
    return r ? accountOf(r) : null;
  }

  /** Every stored account by id, listed or not (what a pull compares its news with). */
  everyStored(): Map<number, StoredAccount> {
    return new Map(
      (this.sql('SELECT * FROM accounts').all() as Row[]).map((r) => [r.id as number, { row: accountOf(r), listed: bool(r.listed) }]),
    );
  }

  /** Writes an account the service returned (after a pull, AddAccount or EditAccount); a new one goes last unless placed. */
  upsert(a: AccountRow, position?: number): void {
    const pos = position ?? (this.sql('SELECT COALESCE(MAX(position), -1) + 1 AS p FROM accounts').get() as { p: number }).p;
    this.sql(UPSERT_ACCOUNT).run({ ...rowParams(ACCOUNT, ACCOUNT.stored, a), position: pos, keepPosition: int(position === undefined) });
  }

  /** Marks listed accounts other than these as no longer listed; returns how many changed. */
  unlistOthers(listed: ReadonlySet<number>): number {
    const unlist = this.sql('UPDATE accounts SET listed = 0 WHERE id = ?');
    let changed = 0;
    for (const id of this.sql('SELECT id FROM accounts WHERE listed = 1').pluck().all() as number[]) {
      if (!listed.has(id)) changed += unlist.run(id).changes;
    }
    return changed;
  }

  /** Whether the copy holds an account (listed or not, so with stored transactions or not) other than these. */
  hasOthersThan(ids: readonly number[]): boolean {
    return (
      this.sql('SELECT EXISTS (SELECT 1 FROM accounts WHERE id NOT IN (SELECT value FROM json_each(?)))')
        .pluck()
        .get(JSON.stringify(ids)) === 1
    );
  }

  /** Adds an exact decimal to the balance the service last reported (a transfer it confirmed). */
  addToBalance(accountId: number, delta: string): void {
    const row = this.sql('SELECT balance FROM accounts WHERE id = ?').get(accountId) as { balance: string } | undefined;
    if (!row) return;
    const next = add(parseDecimal(row.balance)!, parseDecimal(delta)!);
    this.sql('UPDATE accounts SET balance = ? WHERE id = ?').run(formatDecimal(next), accountId);
  }

  /** Sets balances from a fresh account list, leaving everything else as it is. */
  setBalances(accounts: readonly AccountRow[]): void {
    const stmt = this.sql('UPDATE accounts SET balance = ? WHERE id = ?');
    for (const a of accounts) stmt.run(a.balance, a.id);
  }

  /** The name of an account in the copy, also one the service no longer lists. */
  name(id: number): string | null {
    return (this.sql('SELECT name FROM accounts WHERE id = ?').pluck().get(id) as string | undefined) ?? null;
  }

  /** Ids of every account this copy holds, listed or not. */
  ids(): number[] {
    return this.sql('SELECT id FROM accounts').pluck().all() as number[];
  }

  /** Whether the copy holds this account, listed or not (a transaction is kept only for a known account). */
  holds(): (id: number) => boolean {
    const exists = this.sql('SELECT 1 FROM accounts WHERE id = ?').pluck();
    return (id) => exists.get(id) !== undefined;
  }
}
