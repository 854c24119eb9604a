/**
 * Randomized offline writes and the data they are meant to produce. A WriteModel makes valid writes
 * through an app core (transfers, new and edited accounts, new and renamed categories, new and edited
 * refuelings, with temporary-id chains and deliberate look-alike duplicates), keeps the intended end
 * state, and compares it exactly with what the service holds: nothing lost, nothing twice.
 */
import { expect } from 'vitest';
import type { SoapClient } from '../../src-main/core/soap-client';
import type { AccountInput, AppApi, RefuelingEditInput, RefuelingInput } from '../../src-shared/app-api';
import type { ApiCategory } from '../../src-shared/catalog';
import {
  add,
  compare,
  decimalFromNumber,
  formatDecimal,
  negate,
  normalize,
  parseDecimal,
  ZERO,
  type Decimal,
} from '../../src-shared/money';

interface ModelAccount extends AccountInput {
  id: number;
  balance: Decimal;
  transactions: string[];
}

interface ModelCategory {
  id: number;
  name: string;
  parentId: number;
}

type ModelRefueling = RefuelingEditInput;

export interface Intended {
  accounts: Record<string, Omit<ModelAccount, 'id' | 'name' | 'balance' | 'transactions'> & { balance: string; transactions: string[] }>;
  categories: string[];
  refuelings: Record<number, string[]>;
}

/** Transactions an account may get in a run: the service lists only its last 50, and all must be checked. */
const MAX_TX_PER_ACCOUNT = 46;

export class WriteModel {
  readonly accounts = new Map<number, ModelAccount>();
  readonly categories = new Map<number, ModelCategory>();
  readonly refuelings = new Map<number, ModelRefueling>();
  private serial = 0;
  private lastTransfer: Parameters<AppApi['transfer']>[0] | null = null;
  private lastRefueling: RefuelingInput | null = null;
  readonly counts: Record<string, number> = {};

  constructor(
    private readonly random: () => number,
    readonly carIds: readonly number[],
  ) {}

  private pick<T>(list: readonly T[]): T | undefined {
    return list.length ? list[Math.floor(this.random() * list.length)] : undefined;
  }
  private int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  /** Canonical decimal text with up to two places, as the app API returns it. */
  private money(max = 99999): string {
    return formatDecimal(normalize({ units: BigInt(this.int(1, max)), scale: 2 }));
  }
  private date(): string {
    return `2026-${String(this.int(1, 12)).padStart(2, '0')}-${String(this.int(1, 28)).padStart(2, '0')}T${String(this.int(0, 23)).padStart(2, '0')}:${String(this.int(0, 59)).padStart(2, '0')}:00`;
  }
  private uniqueName(prefix: string): string {
    return `${prefix} ${++this.serial}${this.random() < 0.2 ? ' & <ü>' : ''}`;
  }

  /** Takes the accounts and categories the user has on the service (as the app core lists them after a sync). */
  async adopt(core: AppApi): Promise<void> {
    for (const a of (await core.listAccounts({ includeHidden: true, includeInactive: true })).accounts) {
      this.accounts.set(a.id, { ...a, balance: parseDecimal(a.balance)!, transactions: [] });
      const page = await core.listTransactions({ accountId: a.id, limit: 500 });
      this.accounts.get(a.id)!.transactions = page.items.map((t) =>
        this.transactionKey(t.amount, t.paymentDate, t.description, t.categoryId),
      );
    }
    const walk = (nodes: Awaited<ReturnType<AppApi['getCategoryTree']>>['all']) => {
      for (const n of nodes) {
        this.categories.set(n.id, { id: n.id, name: n.name, parentId: n.parentId });
        walk(n.children);
      }
    };
    walk((await core.getCategoryTree()).all);
    for (const carId of this.carIds) {
      for (const r of await core.listRefuelings({ carId })) this.refuelings.set(r.id, { ...r });
    }
  }

  private categoryPath(id: number): string {
    if (id === 0) return '';
    const parts: string[] = [];
    for (let c = this.categories.get(id); c; c = this.categories.get(c.parentId)) parts.unshift(c.name);
    return parts.join(' / ');
  }

  /** Transactions are compared by content; their category by its path (the names at the end of the run). */
  private transactionKey(amount: string, date: string, description: string, categoryId: number): string {
    return JSON.stringify([amount, date, description, categoryId]);
  }

  /** Makes `count` random valid writes through the core, recording what each is meant to do. */
  async write(core: AppApi, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const r = this.random();
      const done =
        r < 0.45
          ? await this.transfer(core)
          : r < 0.53
            ? await this.addAccount(core)
            : r < 0.63
              ? await this.editAccount(core)
              : r < 0.71
                ? await this.addCategory(core)
                : r < 0.77
                  ? await this.renameCategory(core)
                  : r < 0.91
                    ? await this.addRefueling(core)
                    : await this.editRefueling(core);
      if (!done) i--;
    }
  }

  private count(kind: string): true {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    return true;
  }

  private async transfer(core: AppApi): Promise<boolean> {
    let input = this.lastTransfer && this.random() < 0.08 ? { ...this.lastTransfer } : null;
    const usable = (a: ModelAccount) => a.isActive && !a.locked && a.transactions.length < MAX_TX_PER_ACCOUNT;
    if (input && !(usable(this.accounts.get(input.sourceId)!) && usable(this.accounts.get(input.targetId)!))) input = null;
    if (!input) {
      const source = this.pick([...this.accounts.values()].filter(usable));
      if (!source) return false;
      const target = this.pick(
        [...this.accounts.values()].filter((a) => usable(a) && a.id !== source.id && a.currency === source.currency),
      );
      if (!target) return false;
      const category = this.random() < 0.5 ? 0 : (this.pick([...this.categories.keys()]) ?? 0);
      input = {
        sourceId: source.id,
        targetId: target.id,
        amount: this.money(),
        paymentDate: this.date(),
        categoryId: category,
        description: this.pick(['Rent', 'Savings', 'Transfer', '', 'Účet → spoření']) ?? '',
      };
    }
    await core.transfer(input);
    this.lastTransfer = input;
    const amount = parseDecimal(input.amount)!;
    const source = this.accounts.get(input.sourceId)!;
    const target = this.accounts.get(input.targetId)!;
    source.balance = add(source.balance, negate(amount));
    target.balance = add(target.balance, amount);
    source.transactions.push(this.transactionKey(formatDecimal(negate(amount)), input.paymentDate, input.description, input.categoryId));
    target.transactions.push(this.transactionKey(formatDecimal(amount), input.paymentDate, input.description, input.categoryId));
    return this.count('transfer');
  }

  private async addAccount(core: AppApi): Promise<boolean> {
    const input = {
      name: this.uniqueName('Account'),
      description: this.pick(['', 'new', 'mine']) ?? '',
      currency: this.pick([203, 203, 978])!,
      type: this.int(1, 6),
      isActive: true,
      isHidden: this.random() < 0.1,
      locked: false,
      ord: this.int(0, 20),
    };
    const { id } = await core.addAccount(input);
    this.accounts.set(id, { ...input, id, balance: ZERO, transactions: [] });
    return this.count('addAccount');
  }

  private async editAccount(core: AppApi): Promise<boolean> {
    const a = this.pick([...this.accounts.values()]);
    if (!a) return false;
    const next = { ...a };
    if (this.random() < 0.5) next.name = this.uniqueName('Renamed');
    if (this.random() < 0.4) next.description = this.uniqueName('Note');
    if (this.random() < 0.3) next.type = this.int(1, 6);
    if (this.random() < 0.3) next.ord = this.int(0, 20);
    if (this.random() < 0.2) next.isHidden = !a.isHidden;
    // Locking or deactivating is rare and undone later, so that transfers keep finding accounts.
    if (this.random() < 0.08) next.locked = !a.locked;
    if (this.random() < 0.06) next.isActive = !a.isActive;
    await core.editAccount({
      id: a.id,
      name: next.name,
      description: next.description,
      type: next.type,
      isActive: next.isActive,
      isHidden: next.isHidden,
      locked: next.locked,
      ord: next.ord,
    });
    Object.assign(a, next);
    return this.count('editAccount');
  }

  private async addCategory(core: AppApi): Promise<boolean> {
    const parentId = this.random() < 0.4 ? 0 : (this.pick([...this.categories.keys()]) ?? 0);
    if (parentId !== 0 && this.depth(parentId) >= 5) return false;
    const name = this.uniqueName('Category');
    const { id } = await core.addCategory({ name, parentId });
    this.categories.set(id, { id, name, parentId });
    return this.count('addCategory');
  }

  private depth(id: number): number {
    let d = 0;
    for (let c = this.categories.get(id); c && c.parentId !== 0; c = this.categories.get(c.parentId)) d++;
    return d;
  }

  private async renameCategory(core: AppApi): Promise<boolean> {
    const c = this.pick([...this.categories.values()]);
    if (!c) return false;
    const name = this.uniqueName('Renamed category');
    await core.renameCategory({ id: c.id, name });
    c.name = name;
    return this.count('renameCategory');
  }

  private async addRefueling(core: AppApi): Promise<boolean> {
    const carId = this.pick(this.carIds)!;
    if ([...this.refuelings.values()].filter((r) => r.carId === carId).length >= MAX_TX_PER_ACCOUNT) return false;
    const input =
      this.lastRefueling && this.random() < 0.08
        ? { ...this.lastRefueling }
        : {
            carId,
            dateOfPurchase: this.date(),
            tachometer: this.int(1000, 200000),
            liter: this.money(6000),
            price: this.money(),
            currency: 203,
            rate: '1',
            description: this.pick(['Shell', 'OMV', '', 'MOL']) ?? '',
          };
    const { id } = await core.addRefueling(input);
    this.lastRefueling = input;
    this.refuelings.set(id, { id, ...input });
    return this.count('addRefueling');
  }

  private async editRefueling(core: AppApi): Promise<boolean> {
    const r = this.pick([...this.refuelings.values()]);
    if (!r) return false;
    const next = { ...r };
    if (this.random() < 0.5) next.price = this.money();
    if (this.random() < 0.4) next.liter = this.money(6000);
    if (this.random() < 0.4) next.description = this.uniqueName('Fuel');
    if (this.random() < 0.3) next.tachometer = this.int(1000, 200000);
    await core.editRefueling(next);
    Object.assign(r, next);
    return this.count('editRefueling');
  }

  /** The end state the writes are meant to produce, with temporary ids resolved away (names and paths). */
  intended(): Intended {
    const accounts: Intended['accounts'] = {};
    for (const a of this.accounts.values()) {
      accounts[a.name] = {
        description: a.description,
        type: a.type,
        currency: a.currency,
        isActive: a.isActive,
        isHidden: a.isHidden,
        locked: a.locked,
        ord: a.ord,
        balance: formatDecimal(a.balance),
        transactions: a.transactions.map((k) => this.resolveKey(k)).sort(),
      };
    }
    const refuelings: Intended['refuelings'] = {};
    for (const carId of this.carIds) refuelings[carId] = [];
    for (const r of this.refuelings.values()) refuelings[r.carId]!.push(refuelingKey(r));
    for (const list of Object.values(refuelings)) list.sort();
    return { accounts, categories: [...this.categories.keys()].map((id) => this.categoryPath(id)).sort(), refuelings };
  }

  private resolveKey(key: string): string {
    const [amount, date, description, categoryId] = JSON.parse(key) as [string, string, string, number];
    return JSON.stringify([amount, date, description, this.categoryPath(categoryId)]);
  }
}

function refuelingKey(r: Omit<ModelRefueling, 'id'>): string {
  return JSON.stringify([r.dateOfPurchase, r.tachometer, r.liter, r.price, r.currency, r.rate, r.description]);
}

const dec = (n: number) => formatDecimal(decimalFromNumber(n));

/** What the service holds for the client's user, in the Intended form (read directly, no local copy). */
export async function actualOnService(client: SoapClient, carIds: readonly number[]): Promise<Intended> {
  const tree = await client.call('CategoryTree', {});
  const paths = new Map<number, string>();
  const walk = (list: ApiCategory[], prefix: string) => {
    for (const c of list) {
      const path = prefix ? `${prefix} / ${c.Name}` : c.Name;
      paths.set(c.Id, path);
      if (c.ChildCategories) walk(c.ChildCategories, path);
    }
  };
  walk(tree.AllCategories, '');
  const accounts: Intended['accounts'] = {};
  const listed = await client.call('AccountListWithAmount2', {});
  const lists = await Promise.all(listed.map((a) => client.call('TransactionListLast50_2', { AccountId: a.Id })));
  for (const [i, a] of listed.entries()) {
    const list = lists[i]!;
    expect(list.length, `account ${a.Name} has more transactions than the service lists`).toBeLessThan(50);
    expect(accounts[a.Name], `two accounts named ${a.Name}`).toBeUndefined();
    accounts[a.Name] = {
      description: a.Description,
      type: a.Type,
      currency: a.Currency,
      isActive: a.IsActive,
      isHidden: a.IsHidden,
      locked: a.Locked,
      ord: a.Ord,
      balance: dec(a.Amount),
      transactions: list
        .map((t) =>
          JSON.stringify([
            dec(t.Amount),
            t.PaymentDate,
            t.Description,
            t.Id_Category === 0 ? '' : (paths.get(t.Id_Category) ?? `#${t.Id_Category}`),
          ]),
        )
        .sort(),
    };
  }
  const refuelings: Intended['refuelings'] = {};
  const fuel = await Promise.all(carIds.map((carId) => client.call('CarFuelList', { CarId: carId })));
  for (const [i, carId] of carIds.entries()) {
    const list = fuel[i]!;
    expect(list.length).toBeLessThan(50);
    refuelings[carId] = list
      .map((r) =>
        refuelingKey({
          carId,
          dateOfPurchase: r.DateOfPurchase,
          tachometer: r.Tachometer,
          liter: dec(r.Liter),
          price: dec(r.Price),
          currency: r.Currency,
          rate: dec(r.Rate),
          description: r.Description,
        }),
      )
      .sort();
  }
  return { accounts, categories: [...paths.values()].sort(), refuelings };
}

/** Balances must also match exactly as decimals (a duplicated transfer beyond the listed 50 would show here). */
export function expectSameData(actual: Intended, intended: Intended): void {
  expect(Object.keys(actual.accounts).sort()).toEqual(Object.keys(intended.accounts).sort());
  for (const [name, want] of Object.entries(intended.accounts)) {
    const got = actual.accounts[name]!;
    expect(got, name).toEqual(want);
    expect(compare(parseDecimal(got.balance)!, parseDecimal(want.balance)!), name).toBe(0);
  }
  expect(actual.categories).toEqual(intended.categories);
  expect(actual.refuelings).toEqual(intended.refuelings);
}
