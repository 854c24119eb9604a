/**
 * The app's writes: each is checked against the local view the way the service would check it,
 * then queued in the outbox in one SQLite transaction, so that the screens show it at once (the view
 * lays the outbox over the server copy) and it survives a crash. Ids a screen passes may be temporary
 * ones whose create has since succeeded: they are resolved first.
 */
import { AppError, type OutboxKind, type TransferCheck, type TransferProblem, type WriteInputOf, type WriteResult } from '../../../src-shared/app-api';
import { currencyDigits, currencyLabel, decimalPlaces, parseDecimal } from '../../../src-shared/money';
import type { CarRow } from '../store/rows';
import type { Store } from '../store/store';
import { CREATED_COUNT, EDITS, type AnyEntry, type EditKind } from './entries';
import { refuelingIn, type LocalView, type ViewAccount, type ViewState } from './local-view';
import type { Outbox } from './outbox';

/** The user may book on or edit an account with this permission code (1 is read only). */
export const canWrite = (permission: number): boolean => permission >= 2;

interface Prepared<K extends OutboxKind> {
  input: WriteInputOf<K>;
  base: Record<string, string | number | boolean> | null;
  /** The id the write result reports for an edit. */
  targetId?: number;
}

/** Sibling categories may not share a name, compared without regard to case. */
const sameName = (a: string, b: string) => a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();

export class LocalWrites {
  constructor(
    private readonly store: Store,
    private readonly outbox: Outbox,
    private readonly view: LocalView,
    private readonly now: () => string,
  ) {}

  private resolve(id: number): number {
    return this.outbox.resolve(id);
  }

  // ---- checks shared by new writes and replaced outbox entries ------------------------------

  private prepare<K extends OutboxKind>(kind: K, raw: WriteInputOf<K>, state: ViewState, previous?: AnyEntry): Prepared<K> {
    switch (kind) {
      case 'addAccount':
        return { input: raw, base: null };
      case 'editAccount': {
        const i = raw as WriteInputOf<'editAccount'>;
        const id = this.resolve(i.id);
        const account = state.accounts.get(id);
        if (!account) throw new AppError('not-found', `Account ${i.id} does not exist.`, 'id');
        if (!canWrite(account.permission)) throw new AppError('rule', `Account "${account.name}" is read-only for you.`, 'id');
        const input = { ...i, id };
        return { input: input as WriteInputOf<K>, base: this.baseFor('editAccount', id, account, previous), targetId: id };
      }
      case 'transfer': {
        const i = raw as WriteInputOf<'transfer'>;
        const input = { ...i, sourceId: this.resolve(i.sourceId), targetId: this.resolve(i.targetId), categoryId: this.resolve(i.categoryId) };
        const problems = transferProblems(input, state);
        if (problems.length > 0) {
          const p = problems[0]!;
          throw new AppError(p.code === 'too-many-decimals' ? 'invalid-input' : 'rule', p.message, p.field);
        }
        if (input.categoryId !== 0 && !state.categories.has(input.categoryId)) {
          throw new AppError('not-found', `Category ${i.categoryId} does not exist.`, 'categoryId');
        }
        return { input: input as WriteInputOf<K>, base: null };
      }
      case 'addCategory': {
        const i = raw as WriteInputOf<'addCategory'>;
        const parentId = this.resolve(i.parentId);
        if (parentId !== 0 && !state.categories.has(parentId)) {
          throw new AppError('not-found', `The parent category ${i.parentId} does not exist.`, 'parentId');
        }
        this.checkSiblingName(state, parentId, i.name, null);
        return { input: { ...i, parentId } as WriteInputOf<K>, base: null };
      }
      case 'renameCategory': {
        const i = raw as WriteInputOf<'renameCategory'>;
        const id = this.resolve(i.id);
        const category = state.categories.get(id);
        if (!category) throw new AppError('not-found', `Category ${i.id} does not exist.`, 'id');
        this.checkSiblingName(state, category.parentId, i.name, id);
        return { input: { ...i, id } as WriteInputOf<K>, base: this.baseFor('renameCategory', id, category, previous), targetId: id };
      }
      case 'addRefueling': {
        const i = raw as WriteInputOf<'addRefueling'>;
        this.checkRefueling(i);
        return { input: raw, base: null };
      }
      case 'editRefueling': {
        const i = raw as WriteInputOf<'editRefueling'>;
        const id = this.resolve(i.id);
        const current = refuelingIn(state, this.store, id);
        if (!current) throw new AppError('not-found', `Refueling ${i.id} does not exist.`, 'id');
        this.checkRefueling(i);
        return { input: { ...i, id } as WriteInputOf<K>, base: this.baseFor('editRefueling', id, current, previous), targetId: id };
      }
    }
    throw new AppError('invalid-input', 'Unknown kind of write.');
  }

  /** The record as it is now (or, for a replaced entry of the same record, as it was when the edit began). */
  private baseFor(kind: EditKind, id: number, current: object, previous?: AnyEntry): Record<string, string | number | boolean> {
    if (previous && previous.base && (previous.input as { id: number }).id === id) return previous.base;
    const record = current as Record<string, string | number | boolean>;
    const base: Record<string, string | number | boolean> = {};
    for (const f of EDITS[kind].fields) base[f] = record[f]!;
    return base;
  }

  private checkSiblingName(state: ViewState, parentId: number, name: string, self: number | null): void {
    for (const c of state.categories.values()) {
      if (c.parentId === parentId && c.id !== self && sameName(c.name, name)) {
        throw new AppError('rule', `A category named "${c.name}" already exists at this place.`, 'name');
      }
    }
  }

  private checkRefueling(i: WriteInputOf<'addRefueling'>): void {
    const p = refuelingProblems(i, this.store.cars())[0];
    if (p) throw new AppError(p.code, p.message, p.field);
  }

  // ---- queueing -------------------------------------------------------------------------------

  /** Checks and queues one write; returns the outbox entry and the id of the record it creates or edits. */
  queue<K extends OutboxKind>(kind: K, raw: WriteInputOf<K>): WriteResult {
    let before = '';
    let entry: AnyEntry | null = null;
    const result = this.store.transaction(() => {
      before = this.view.stampNow();
      const prepared = this.prepare(kind, raw, this.view.state());
      const createdIds = this.outbox.allocateTempIds(CREATED_COUNT[kind]);
      const id = this.outbox.append(kind, prepared.input, this.now(), prepared.base, createdIds);
      entry = this.outbox.get(id)!;
      return { outboxId: id, id: createdIds[0] ?? prepared.targetId ?? 0 };
    });
    // The allocation wrote a setting inside the same transaction, which is all that changed besides the entry.
    if (entry) this.view.extend(entry, before);
    return result;
  }

  /** Replaces the write of a waiting entry (to fix what the service refused); it goes back to pending. */
  replace(entryId: number, raw: WriteInputOf<OutboxKind>): void {
    this.store.transaction(() => {
      const entry = this.outbox.get(entryId);
      if (!entry) throw new AppError('not-found', `Outbox entry ${entryId} does not exist.`);
      if (entry.status === 'unknown') {
        throw new AppError('rule', 'This write was sent and its outcome is not known yet; sync first, then change it.');
      }
      const prepared = this.prepare(entry.kind, raw as never, this.view.stateWithout(entryId), entry);
      this.outbox.replaceInput(entryId, prepared.input, prepared.base);
    });
  }

  checkTransfer(raw: WriteInputOf<'transfer'>): TransferCheck {
    const state = this.view.state();
    const input = { ...raw, sourceId: this.resolve(raw.sourceId), targetId: this.resolve(raw.targetId) };
    return { problems: transferProblems(input, state).map(({ code, accountId, message }) => ({ code, accountId, message })) };
  }
}

export interface RefuelingProblem {
  code: 'not-found' | 'invalid-input';
  field: keyof WriteInputOf<'addRefueling'>;
  message: string;
}

/** Litres to the millilitre and a rate to six decimals: what the service keeps (see src-service/README.md). */
const LITER_PLACES = 3;
const RATE_PLACES = 6;

/** Everything that keeps a refueling from being queued: a car not in the list, and what the service would refuse. */
export function refuelingProblems(i: WriteInputOf<'addRefueling'>, cars: readonly CarRow[]): RefuelingProblem[] {
  const problems: RefuelingProblem[] = [];
  if (!cars.some((c) => c.carId === i.carId)) {
    problems.push({ code: 'not-found', field: 'carId', message: `Car ${i.carId} is not in your car list; add it first.` });
  }
  const digits = currencyDigits(i.currency);
  if (decimalPlaces(parseDecimal(i.price)!) > digits) {
    problems.push({ code: 'invalid-input', field: 'price', message: `The price has more decimal places than ${currencyLabel(i.currency)} allows (${digits}).` });
  }
  if (decimalPlaces(parseDecimal(i.liter)!) > LITER_PLACES) {
    problems.push({ code: 'invalid-input', field: 'liter', message: `The litres have more than ${LITER_PLACES} decimal places.` });
  }
  if (decimalPlaces(parseDecimal(i.rate)!) > RATE_PLACES) {
    problems.push({ code: 'invalid-input', field: 'rate', message: `The rate has more than ${RATE_PLACES} decimal places.` });
  }
  return problems;
}

interface Problem {
  code: TransferProblem;
  accountId: number | null;
  message: string;
  field: string;
}

/** Everything that keeps a transfer from going through, as the screens show it before it is made. */
export function transferProblems(i: Pick<WriteInputOf<'transfer'>, 'sourceId' | 'targetId' | 'amount'>, state: ViewState): Problem[] {
  const problems: Problem[] = [];
  if (i.sourceId === i.targetId) {
    problems.push({ code: 'same-account', accountId: i.sourceId, message: 'The source and the target must be different accounts.', field: 'targetId' });
  }
  const sides: [ViewAccount | undefined, number, 'sourceId' | 'targetId', string][] = [
    [state.accounts.get(i.sourceId), i.sourceId, 'sourceId', 'source'],
    [state.accounts.get(i.targetId), i.targetId, 'targetId', 'target'],
  ];
  for (const [account, id, field, role] of sides) {
    if (!account) {
      problems.push({ code: 'unknown-account', accountId: id, message: `The ${role} account ${id} does not exist.`, field });
      continue;
    }
    if (!canWrite(account.permission)) {
      problems.push({ code: 'read-only', accountId: id, message: `The ${role} account "${account.name}" is read-only for you.`, field });
    }
    if (!account.isActive) problems.push({ code: 'inactive', accountId: id, message: `The ${role} account "${account.name}" is not active.`, field });
    if (account.locked) problems.push({ code: 'locked', accountId: id, message: `The ${role} account "${account.name}" is locked.`, field });
  }
  const source = sides[0]![0];
  const target = sides[1]![0];
  if (source && target && source.currency !== target.currency) {
    problems.push({
      code: 'currency-mismatch',
      accountId: target.id,
      message: `The target account is in ${currencyLabel(target.currency)}, the source account in ${currencyLabel(source.currency)}; a transfer needs one currency.`,
      field: 'targetId',
    });
  }
  const amount = parseDecimal(i.amount);
  if (source && amount) {
    const digits = currencyDigits(source.currency);
    if (decimalPlaces(amount) > digits) {
      problems.push({
        code: 'too-many-decimals',
        accountId: source.id,
        message: `The amount has more decimal places than ${currencyLabel(source.currency)} allows (${digits}).`,
        field: 'amount',
      });
    }
  }
  return problems;
}
