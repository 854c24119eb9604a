/**
 * One queued write against the service: building its request (edits merged with the service's
 * current record), recording what existed before it is sent (its probe), and storing its effect once
 * known: from the service's answer, or found by looking for it after an unknown outcome. Storing the
 * effect, replacing temporary ids and removing the entry happen in one SQLite transaction.
 */
import type { FieldConflict } from '../../../src-shared/app-api';
import type { ApiAccount2, ApiCarFuel, ApiCategoryTree, ApiTransaction2, OperationName, ParamsOf } from '../../../src-shared/catalog';
import { add, compare, negate, parseDecimal, toNumber, type Decimal } from '../../../src-shared/money';
import { isEditKind, type AnyEntry, type EditKind, type OutboxEntry } from '../outbox/entries';
import { LEARNED_KEY, learnedFacts } from '../outbox/local-view';
import type { Outbox } from '../outbox/outbox';
import type { ListedTransaction, SoapClient } from '../soap-client';
import { accountFromApi, categoriesFromApi, decimalText, refuelingFromApi, transactionRow, type CategoryRow } from '../store/rows';
import type { Store } from '../store/store';
import { accountFields, baseOf, merge, mineOf, refuelingFields, type Fields } from './merge';
import type { ServerSnapshot, TransactionWindow } from './snapshot';

/** What a write did on the service. */
export type Effect =
  | { kind: 'account'; account: ApiAccount2 }
  | { kind: 'transactions'; transactions: ApiTransaction2[]; balances: ApiAccount2[] | null }
  | { kind: 'categories'; tree: ApiCategoryTree; createdId: number | null }
  | { kind: 'refueling'; refueling: ApiCarFuel }
  /** An edit whose values the service already has: nothing to send. */
  | { kind: 'nothing' };

/** What one window of transactions held before a transfer was sent. */
interface WindowProbe {
  /** Ids listed, or null when the service lists transactions without ids. */
  ids: number[] | null;
  /** How many listed transactions looked like this transfer (for services without ids). */
  matching: number;
}
/**
 * Before a transfer that both accounts' lists may not show (see mayBeUnlisted): the two balances as
 * the service reported them just before sending, as decimal text.
 */
interface BalancesProbe {
  source: string;
  target: string;
}
/**
 * What the service held before the write is not known (a write restored from a backup, which may have
 * been sent since): its effect cannot be looked for, and the message says what the user should do.
 */
export interface UnknownBeforeProbe {
  undecidable: string;
}
export type Probe = { ids: number[] } | { source: WindowProbe; target: WindowProbe; balances?: BalancesProbe } | UnknownBeforeProbe | null;

/**
 * The service's lists cannot show whether a write whose outcome is unknown happened: the write stays
 * unknown, with this message for the user, and is never sent again without the user's word.
 */
export class EffectUndecidable extends Error {
  override name = 'EffectUndecidable';
}

const QUARTER_HOUR = 15 * 60_000;
const MAX_ZONE_SHIFT = 14 * 3_600_000;
const wallMillis = (wall: string) => Date.parse(`${wall.slice(0, 19)}Z`);

/**
 * Whether a date the service lists can be the wall time the client sent. A service in another time
 * zone that writes dates with an offset is read back in this machine's zone: shifted by whole quarter
 * hours, at most 14 hours (seconds and fractions aside).
 */
function sameMoment(listed: string, sent: string): boolean {
  const shift = wallMillis(listed) - wallMillis(sent);
  return Math.abs(shift) <= MAX_ZONE_SHIFT && shift % QUARTER_HOUR === 0;
}

/** How many records the service's transaction and refueling lists hold at most ("the last 50"). */
const LISTED = 50;

/**
 * Whether a record dated `date` may be missing from a list although it exists: the list is full and
 * the record is not clearly newer than its oldest one (a service that lists the last 50 by date leaves
 * it out; "clearly": beyond what another zone's offset can shift, see sameMoment).
 */
function mayBeUnlisted(dates: readonly string[], date: string): boolean {
  if (dates.length < LISTED) return false;
  const oldest = Math.min(...dates.map(wallMillis));
  return wallMillis(date) <= oldest + MAX_ZONE_SHIFT;
}

function transferMayBeUnlisted(source: TransactionWindow, target: TransactionWindow, date: string): boolean {
  const dates = (w: TransactionWindow) => w.items.map((t) => t.PaymentDate);
  return mayBeUnlisted(dates(source), date) && mayBeUnlisted(dates(target), date);
}

export type Prepared =
  | { action: 'send'; call: { operation: OperationName; params: Record<string, unknown> }; probe: Probe }
  | { action: 'conflict'; conflicts: FieldConflict[] }
  | { action: 'done'; effect: Effect };

const trimEq = (a: string, b: string) => a.trim() === b.trim();
const abs = (d: Decimal): Decimal => (d.units < 0n ? negate(d) : d);

/** Whether a listed transaction looks like one side of the transfer. */
function matchesTransfer(t: ListedTransaction, input: OutboxEntry<'transfer'>['input']): boolean {
  return (
    compare(abs(parseDecimal(decimalText(t.Amount, 'Amount'))!), parseDecimal(input.amount)!) === 0 &&
    sameMoment(t.PaymentDate, input.paymentDate) &&
    t.Description === input.description &&
    t.Id_Category === input.categoryId
  );
}

function windowProbe(w: TransactionWindow, input: OutboxEntry<'transfer'>['input']): WindowProbe {
  return { ids: w.hasIds ? w.items.map((t) => t.Id!) : null, matching: w.items.filter((t) => matchesTransfer(t, input)).length };
}

/** New transactions of the window that look like the transfer (and are no one else's effect we know of). */
function newMatches(w: TransactionWindow, probe: WindowProbe, input: OutboxEntry<'transfer'>['input'], own: Set<number>): ListedTransaction[] {
  const matches = w.items.filter((t) => matchesTransfer(t, input));
  if (probe.ids === null || !w.hasIds) return matches.length > probe.matching ? matches.slice(0, 1) : [];
  const before = new Set(probe.ids);
  return matches.filter((t) => t.Id !== null && !before.has(t.Id) && !own.has(t.Id)).slice(0, 1);
}

export class WritePusher {
  constructor(
    private readonly client: SoapClient,
    private readonly store: Store,
    private readonly outbox: Outbox,
    private readonly snapshot: ServerSnapshot,
    /** Bounds the requests in flight, shared with the snapshot's reads. */
    private readonly limit: <T>(request: () => Promise<T>) => Promise<T> = (r) => r(),
  ) {}

  // ---- before sending ------------------------------------------------------------------------

  /** The service's current record an edit merges with, in the edit input's terms; null if the service lacks it. */
  private async theirs(entry: AnyEntry & { kind: EditKind }): Promise<Fields | null> {
    const id = (entry.input as { id: number }).id;
    switch (entry.kind) {
      case 'editAccount': {
        const a = (await this.snapshot.accounts()).get(id);
        return a ? accountFields(a) : null;
      }
      case 'renameCategory': {
        const c = (await this.snapshot.categories()).rows.find((r) => r.id === id);
        return c ? { name: c.name } : null;
      }
      case 'editRefueling': {
        // The service lists a car's last 50; an older refueling is merged with the local copy's record.
        const carId = entry.base && typeof entry.base.carId === 'number' ? entry.base.carId : entry.input.carId;
        const listed = (await this.snapshot.refuelings(carId)).find((r) => r.Id === id);
        if (listed) return refuelingFields(listed);
        const stored = this.store.refueling(id);
        return stored ? { ...stored } : null;
      }
    }
  }

  /** Decides what to do with a pending entry: the request to send (and its probe), a conflict, or nothing. */
  async prepare(entry: AnyEntry): Promise<Prepared> {
    if (isEditKind(entry.kind)) {
      const edit = entry as AnyEntry & { kind: EditKind };
      const theirs = await this.theirs(edit);
      const mine = mineOf(edit);
      if (theirs === null) return { action: 'send', call: this.editCall(edit, mine), probe: null };
      const merged = merge(edit.kind, baseOf(edit, theirs), mine, theirs);
      if (merged.conflicts.length > 0) return { action: 'conflict', conflicts: merged.conflicts };
      if (merged.changed.every((f) => merged.values[f] === theirs[f])) return { action: 'done', effect: { kind: 'nothing' } };
      return { action: 'send', call: this.editCall(edit, merged.values), probe: null };
    }
    switch (entry.kind) {
      case 'addAccount': {
        const i = entry.input;
        const ids = [...(await this.snapshot.accounts()).keys()];
        return {
          action: 'send',
          call: {
            operation: 'AddAccount',
            params: { Name: i.name, Description: i.description, Currency: i.currency, Type: i.type, IsActive: i.isActive, IsHidden: i.isHidden, Locked: i.locked, Ord: i.ord },
          },
          probe: { ids },
        };
      }
      case 'transfer': {
        const i = entry.input;
        const [source, target] = await Promise.all([this.snapshot.transactions(i.sourceId), this.snapshot.transactions(i.targetId)]);
        let balances: BalancesProbe | undefined;
        if (transferMayBeUnlisted(source, target, i.paymentDate)) {
          const accounts = await this.snapshot.freshAccounts();
          const [s, t] = [accounts.get(i.sourceId), accounts.get(i.targetId)];
          if (s && t) balances = { source: decimalText(s.Amount, 'Amount'), target: decimalText(t.Amount, 'Amount') };
        }
        return {
          action: 'send',
          call: {
            operation: 'AddTranferToOtherAccount',
            params: {
              Amount: toNumber(parseDecimal(i.amount)!),
              Description: i.description,
              Id_SourceAccount: i.sourceId,
              Id_TargetAccount: i.targetId,
              Id_Category: i.categoryId,
              PaymentDate: i.paymentDate,
            },
          },
          probe: { source: windowProbe(source, i), target: windowProbe(target, i), ...(balances ? { balances } : {}) },
        };
      }
      case 'addCategory': {
        const ids = (await this.snapshot.categories()).rows.map((c) => c.id);
        return { action: 'send', call: { operation: 'AddCategory', params: { Name: entry.input.name, Id_ParentCategory: entry.input.parentId } }, probe: { ids } };
      }
      case 'addRefueling': {
        const i = entry.input;
        const ids = (await this.snapshot.refuelings(i.carId)).map((r) => r.Id);
        return { action: 'send', call: { operation: 'EditCarFuel', params: this.refuelingParams(i as unknown as Fields, 0) }, probe: { ids } };
      }
    }
    throw new Error(`Unknown outbox kind ${(entry as AnyEntry).kind}`);
  }

  private refuelingParams(f: Fields, id: number): ParamsOf<'EditCarFuel'> {
    return {
      CarId: f.carId as number,
      Id_CarFuel: id,
      Liter: toNumber(parseDecimal(f.liter as string)!),
      Price: toNumber(parseDecimal(f.price as string)!),
      Tachometer: f.tachometer as number,
      DateOfPurchase: f.dateOfPurchase as string,
      Currency: f.currency as number,
      Description: f.description as string,
      Rate: toNumber(parseDecimal(f.rate as string)!),
    };
  }

  private editCall(entry: AnyEntry & { kind: EditKind }, v: Fields): { operation: OperationName; params: Record<string, unknown> } {
    const id = (entry.input as { id: number }).id;
    switch (entry.kind) {
      case 'editAccount':
        return {
          operation: 'EditAccount',
          params: { Id_Account: id, Name: v.name, Description: v.description, Type: v.type, IsActive: v.isActive, IsHidden: v.isHidden, Locked: v.locked, Ord: v.ord },
        };
      case 'renameCategory':
        return { operation: 'EditCategory', params: { Id_Category: id, Name: v.name } };
      case 'editRefueling':
        return { operation: 'EditCarFuel', params: this.refuelingParams(v, id) };
    }
  }

  // ---- sending ---------------------------------------------------------------------------------

  /** Sends a prepared request and turns the answer into the write's effect. Throws CallError. */
  send(entry: AnyEntry, call: { operation: OperationName; params: Record<string, unknown> }, probe: Probe): Promise<Effect> {
    return this.limit(() => this.sendNow(entry, call, probe));
  }

  private async sendNow(entry: AnyEntry, call: { operation: OperationName; params: Record<string, unknown> }, probe: Probe): Promise<Effect> {
    switch (entry.kind) {
      case 'addAccount':
      case 'editAccount': {
        const account = await this.client.call(call.operation as 'AddAccount', call.params as ParamsOf<'AddAccount'>);
        return { kind: 'account', account };
      }
      case 'transfer': {
        const pair = await this.client.call('AddTranferToOtherAccount', call.params as ParamsOf<'AddTranferToOtherAccount'>);
        return { kind: 'transactions', transactions: [pair.Transaction1, pair.Transaction2], balances: null };
      }
      case 'addCategory': {
        const tree = await this.client.call('AddCategory', call.params as ParamsOf<'AddCategory'>);
        return { kind: 'categories', tree, createdId: this.findCategory(categoriesFromApi(tree).all, entry, probe) };
      }
      case 'renameCategory': {
        const tree = await this.client.call('EditCategory', call.params as ParamsOf<'EditCategory'>);
        return { kind: 'categories', tree, createdId: null };
      }
      case 'addRefueling':
      case 'editRefueling': {
        const refueling = await this.client.call('EditCarFuel', call.params as ParamsOf<'EditCarFuel'>);
        return { kind: 'refueling', refueling };
      }
    }
  }

  /** The category a create made: new since the probe, not one of ours already, with its name and parent. */
  private findCategory(rows: CategoryRow[], entry: OutboxEntry<'addCategory'>, probe: Probe): number | null {
    const before = new Set(probe && 'ids' in probe ? probe.ids : []);
    const own = this.outbox.ownIds('category');
    const candidates = rows.filter((c) => !before.has(c.id) && !own.has(c.id) && c.parentId === entry.input.parentId);
    const exact = candidates.find((c) => trimEq(c.name, entry.input.name));
    const loose = candidates.find((c) => c.name.trim().toLowerCase() === entry.input.name.trim().toLowerCase());
    return (exact ?? loose)?.id ?? null;
  }

  // ---- an unknown outcome ------------------------------------------------------------------------

  /**
   * Looks on the service for the effect of a write whose outcome is unknown. Reads must be fresh (the
   * caller invalidated the snapshot). Returns the effect, or null when the write did not happen.
   */
  async findEffect(entry: AnyEntry): Promise<Effect | null> {
    if (isEditKind(entry.kind)) {
      const edit = entry as AnyEntry & { kind: EditKind };
      const theirs = await this.theirs(edit);
      if (theirs === null) return null;
      const mine = mineOf(edit);
      const merged = merge(edit.kind, baseOf(edit, theirs), mine, theirs);
      return merged.changed.every((f) => theirs[f] === mine[f]) ? { kind: 'nothing' } : null;
    }
    const probe = entry.probe as Probe;
    if (probe && 'undecidable' in probe) throw new EffectUndecidable(probe.undecidable);
    switch (entry.kind) {
      case 'addAccount': {
        const before = new Set(probe && 'ids' in probe ? probe.ids : []);
        const own = this.outbox.ownIds('account');
        const i = entry.input;
        for (const a of (await this.snapshot.accounts()).values()) {
          if (before.has(a.Id) || own.has(a.Id)) continue;
          if (trimEq(a.Name, i.name) && a.Currency === i.currency && a.Type === i.type && a.Description === i.description) {
            return { kind: 'account', account: a };
          }
        }
        return null;
      }
      case 'transfer': {
        if (!probe || !('source' in probe)) return null;
        const i = entry.input;
        const own = this.outbox.ownIds('transaction');
        const [source, target] = await Promise.all([this.snapshot.transactions(i.sourceId), this.snapshot.transactions(i.targetId)]);
        const found = [...newMatches(source, probe.source, i, own), ...newMatches(target, probe.target, i, own)];
        if (found.length === 0) {
          // Both sides are written together: one list that would show the transfer proves it did not happen.
          return transferMayBeUnlisted(source, target, i.paymentDate) ? this.transferByBalances(i, probe.balances) : null;
        }
        const balances = [...(await this.snapshot.accounts()).values()];
        const withIds = found.filter((t): t is ApiTransaction2 => t.Id !== null);
        return { kind: 'transactions', transactions: withIds, balances };
      }
      case 'addCategory': {
        const { tree, rows } = await this.snapshot.categories();
        const createdId = this.findCategory(rows, entry, probe);
        return createdId === null ? null : { kind: 'categories', tree, createdId };
      }
      case 'addRefueling': {
        const before = new Set(probe && 'ids' in probe ? probe.ids : []);
        const own = this.outbox.ownIds('refueling');
        const i = entry.input;
        const listed = await this.snapshot.refuelings(i.carId);
        for (const r of listed) {
          if (before.has(r.Id) || own.has(r.Id)) continue;
          const f = refuelingFields(r);
          if (sameMoment(r.DateOfPurchase, i.dateOfPurchase) && f.tachometer === i.tachometer && f.liter === i.liter && f.price === i.price && f.currency === i.currency) {
            return { kind: 'refueling', refueling: r };
          }
        }
        if (mayBeUnlisted(listed.map((r) => r.DateOfPurchase), i.dateOfPurchase)) {
          throw new EffectUndecidable(
            `Whether this refueling reached the service cannot be told: it is dated before the last 50 refuelings the service lists for car ${i.carId}. ` +
              'If the service has it, discard this write; if not, retry it.',
          );
        }
        return null;
      }
    }
    return null;
  }

  /**
   * A transfer neither account's list can show: it happened if the balances moved by its amount, one
   * down and one up, since just before it was sent; it did not if neither moved. Anything else (other
   * changes meanwhile, no balances kept) cannot be told apart.
   */
  private async transferByBalances(i: OutboxEntry<'transfer'>['input'], before: BalancesProbe | undefined): Promise<Effect | null> {
    const accounts = await this.snapshot.accounts();
    const [s, t] = [accounts.get(i.sourceId), accounts.get(i.targetId)];
    if (before && s && t) {
      const moved = (now: number, then: string) => add(parseDecimal(decimalText(now, 'Amount'))!, negate(parseDecimal(then)!));
      const ds = moved(s.Amount, before.source);
      const dt = moved(t.Amount, before.target);
      if (ds.units === 0n && dt.units === 0n) return null;
      if (compare(abs(ds), parseDecimal(i.amount)!) === 0 && compare(dt, negate(ds)) === 0) {
        return { kind: 'transactions', transactions: [], balances: [...accounts.values()] };
      }
    }
    throw new EffectUndecidable(
      'Whether this transfer reached the service cannot be told: it is dated before the last 50 transactions the service lists for both accounts, ' +
        'and their balances do not show it either. If the service has it, discard this write; if not, retry it.',
    );
  }

  // ---- storing the effect ------------------------------------------------------------------------

  /**
   * Stores what the write did, replaces its temporary ids everywhere and removes it from the outbox,
   * in one transaction, then notes the effect in the snapshot.
   */
  finalize(entry: AnyEntry, effect: Effect): void {
    this.store.transaction(() => this.applyEffect(entry, effect));
    this.noteEffect(effect);
  }

  /**
   * The local half of finalize, to be run inside the caller's transaction (a group commit). The effect
   * is stored, and a created record's id replaces its temporary one, even if the entry was discarded
   * while its request was under way: the record exists on the service all the same.
   */
  applyEffect(entry: AnyEntry, effect: Effect): void {
    const learned = learnedFacts(this.store);
    switch (effect.kind) {
      case 'account': {
        this.store.upsertAccount(accountFromApi(effect.account));
        if (entry.kind === 'addAccount') {
          this.outbox.markOwn('account', effect.account.Id);
          this.outbox.replaceTempId('account', entry.createdIds[0]!, effect.account.Id);
          learned.ownerPermission = effect.account.UserAccountPermission;
        }
        break;
      }
      case 'transactions': {
        // A service whose lists carry no ids lists these under keys of their content: kept from the
        // answer as well, each would show twice. The pull that ends the sync brings them.
        const listedWithIds = !this.client.lacks('TransactionListLast50_2');
        for (const t of effect.transactions) {
          this.outbox.markOwn('transaction', t.Id);
          if (listedWithIds) this.store.upsertTransactions([transactionRow(t.Id_Account, t)]);
        }
        if (effect.balances) this.store.setBalances(effect.balances.map(accountFromApi));
        else for (const t of effect.transactions) this.store.addToBalance(t.Id_Account, decimalText(t.Amount, 'Amount'));
        if (entry.kind === 'transfer') {
          const input = entry.input;
          effect.transactions.forEach((t) => {
            const side = t.Id_Account === input.sourceId ? 0 : t.Id_Account === input.targetId ? 1 : -1;
            if (side >= 0) this.outbox.replaceTempId('transaction', entry.createdIds[side]!, t.Id);
            if (side === 0) learned.sourceNegative = t.Amount < 0;
            learned.transferType = t.Type;
          });
        }
        break;
      }
      case 'categories': {
        this.store.replaceCategories(categoriesFromApi(effect.tree));
        if (entry.kind === 'addCategory' && effect.createdId !== null) {
          this.outbox.markOwn('category', effect.createdId);
          this.outbox.replaceTempId('category', entry.createdIds[0]!, effect.createdId);
        }
        break;
      }
      case 'refueling': {
        this.store.upsertRefuelings([refuelingFromApi(effect.refueling)]);
        if (entry.kind === 'addRefueling') {
          this.outbox.markOwn('refueling', effect.refueling.Id);
          this.outbox.replaceTempId('refueling', entry.createdIds[0]!, effect.refueling.Id);
        }
        break;
      }
      case 'nothing':
        break;
    }
    this.store.setSetting(LEARNED_KEY, learned);
    // An edit found done without a request was never marked sent, so the user may have changed it
    // meanwhile: the changed write stays queued. A sent write cannot change (it is 'unknown' until now).
    if (effect.kind !== 'nothing' || this.outbox.holds(entry.id, entry.input)) this.outbox.remove(entry.id);
  }

  /** Keeps this push's view of the service current with a write's effect. */
  noteEffect(effect: Effect): void {
    switch (effect.kind) {
      case 'account':
        this.snapshot.noteAccount(effect.account);
        break;
      case 'transactions':
        this.snapshot.noteTransactions(...effect.transactions);
        break;
      case 'categories':
        this.snapshot.noteCategories(effect.tree);
        break;
      case 'refueling':
        this.snapshot.noteRefueling(effect.refueling);
        break;
    }
  }
}
