/**
 * Trust nothing a service sends: one check per operation of the catalog (the compiler holds the table
 * to every operation), run on every result before anyone sees it. What could corrupt the local copy is
 * refused with a message that names the operation, the record and the field:
 *
 * - an id that is not a positive whole number (0 or a negative id would collide with the temporary
 *   negative ids of records made offline); a reference may be 0 where the interface says "none"
 *   (a transaction's or template's category, a category's parent);
 * - the same id twice in one list with different content (identical duplicates are dropped);
 * - a category tree in which an id appears twice (a cycle, a shared child) or that nests too deep;
 * - more records than the app handles (RECORD_CAPS), counted in the answer's text before it is parsed,
 *   so that a hostile service cannot make the app build a tree of 100,000 records;
 * - a write's answer that is not the record written: an edit's answer for another id, a transfer's two
 *   sides on accounts other than the two asked for.
 *
 * A refusal is an UntrustedAnswerError: not transient (asking again gets the same), and `sent`: for a
 * write, the service may have acted, so the push looks for its effect before anything is sent again.
 */
import type { OperationName, ParamsOf, ResultOf } from '../../../src-shared/catalog';
import { OPERATIONS } from '../../../src-shared/catalog';
import type { ApiCategory, ApiCategoryTree, ApiTransaction2 } from '../../../src-shared/catalog/records';
import { CATEGORY_RECORD } from '../../../src-shared/catalog/records';
import { CallError } from './errors';

/** The most records of each list the app takes from a service (the interface's lists hold 50). */
export const RECORD_CAPS = {
  accounts: 5_000,
  /** Per list: the service lists the last 50; ten times that is headroom for a generous service. */
  transactions: 500,
  templates: 5_000,
  categories: 10_000,
  refuelings: 500,
} as const;

/** Deepest category nesting accepted (the screens indent each level). */
export const MAX_CATEGORY_DEPTH = 32;

export class UntrustedAnswerError extends CallError {
  override name = 'UntrustedAnswerError';
  readonly kind = 'untrusted' as const;
  readonly sent = true;
}

type Check<N extends OperationName> = (operation: N, result: ResultOf<N>, params: ParamsOf<N>) => ResultOf<N>;

const refuse = (operation: string, message: string): never => {
  throw new UntrustedAnswerError(operation, `The service's answer to ${operation} cannot be trusted: ${message}`);
};

function positiveId(operation: string, what: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) refuse(operation, `${what} is ${String(value)}, not a positive id.`);
}

function reference(operation: string, what: string, value: unknown): void {
  if (value === 0) return;
  positiveId(operation, what, value);
}

/**
 * The list without identical duplicates; refused past `cap`, for an id that is not positive, or for two
 * records with one id and different content.
 */
function uniqueRecords<T extends Record<string, unknown>>(
  operation: string,
  record: string,
  items: T[],
  cap: number,
  key: (r: T) => unknown = (r) => r.Id,
): T[] {
  if (items.length > cap) {
    refuse(
      operation,
      `it lists ${items.length.toLocaleString('en')} ${record} records; the app handles at most ${cap.toLocaleString('en')}.`,
    );
  }
  const seen = new Map<unknown, string>();
  const out: T[] = [];
  for (const item of items) {
    const id = key(item);
    positiveId(operation, `${record} Id`, id);
    const text = JSON.stringify(item);
    const before = seen.get(id);
    if (before === undefined) {
      seen.set(id, text);
      out.push(item);
    } else if (before !== text) refuse(operation, `it lists ${record} ${String(id)} twice, with different content.`);
  }
  return out;
}

function checkTree(operation: string, tree: ApiCategoryTree): ApiCategoryTree {
  let count = 0;
  const walk = (list: ApiCategory[] | null, depth: number, seen: Set<number>, where: string) => {
    if (!list) return;
    if (depth > MAX_CATEGORY_DEPTH) refuse(operation, `its ${where} nest deeper than ${MAX_CATEGORY_DEPTH} levels.`);
    for (const c of list) {
      if (++count > RECORD_CAPS.categories) {
        refuse(operation, `it lists more than ${RECORD_CAPS.categories.toLocaleString('en')} categories; the app handles at most that.`);
      }
      positiveId(operation, `${CATEGORY_RECORD} Id`, c.Id);
      if (seen.has(c.Id)) refuse(operation, `category ${c.Id} appears twice in its ${where} (a cycle or a shared child).`);
      seen.add(c.Id);
      walk(c.ChildCategories, depth + 1, seen, where);
    }
  };
  walk(tree.AllCategories, 1, new Set(), 'category tree');
  // Favourites repeat categories of the tree; only each favourite's own subtree must be sound.
  for (const f of tree.FavoritCategories) walk([f], 1, new Set(), 'favourite categories');
  return tree;
}

function checkTransaction(operation: string, t: { Id?: number; Id_Account: number; Id_Category: number }, what: string): void {
  if (t.Id !== undefined) positiveId(operation, `${what} Id`, t.Id);
  positiveId(operation, `${what} Id_Account`, t.Id_Account);
  reference(operation, `${what} Id_Category`, t.Id_Category);
}

const accounts = <N extends 'AccountList2' | 'AccountListWithAmount' | 'AccountListWithAmount2'>(operation: N, result: ResultOf<N>) =>
  uniqueRecords(operation, 'account', result as unknown as Record<string, unknown>[], RECORD_CAPS.accounts) as unknown as ResultOf<N>;

const templates = <N extends 'DefineTransactionList' | 'DefineTransactionList2'>(operation: N, result: ResultOf<N>) => {
  const list = uniqueRecords(operation, 'template', result as unknown as Record<string, unknown>[], RECORD_CAPS.templates);
  for (const t of list) {
    positiveId(operation, 'template Id_Account', t.Id_Account);
    reference(operation, 'template Id_Category', t.Id_Category);
  }
  return list as unknown as ResultOf<N>;
};

/** The checks of every operation's result. */
export const ANSWER_CHECKS: { [N in OperationName]: Check<N> } = {
  AccountList2: accounts,
  AccountListWithAmount: accounts,
  AccountListWithAmount2: accounts,
  TransactionListLast50_2: (operation, result) => {
    const items = uniqueRecords(
      operation,
      'transaction',
      result as unknown as Record<string, unknown>[],
      RECORD_CAPS.transactions,
    ) as unknown as ApiTransaction2[];
    // Id_Account is not compared with the account asked for: services list a transfer's sides
    // differently, and the local copy files each list under the account it asked for.
    for (const t of items) checkTransaction(operation, t, 'transaction');
    return items;
  },
  TransactionListLast50: (operation, result) => {
    // Without ids: duplicates cannot be told from two equal payments, so only the count and references.
    const items = result as unknown as { Id_Account: number; Id_Category: number }[];
    if (items.length > RECORD_CAPS.transactions) {
      refuse(operation, `it lists ${items.length} transactions; the app handles at most ${RECORD_CAPS.transactions}.`);
    }
    for (const t of items) checkTransaction(operation, t, 'transaction');
    return result;
  },
  DefineTransactionList: templates,
  DefineTransactionList2: templates,
  CarFuelList: (operation, result) =>
    uniqueRecords(operation, 'refueling', result as unknown as Record<string, unknown>[], RECORD_CAPS.refuelings) as unknown as ResultOf<
      typeof operation
    >,
  CategoryTree: (operation, result) => checkTree(operation, result),
  AddCategory: (operation, result) => checkTree(operation, result),
  EditCategory: (operation, result) => checkTree(operation, result),
  AddAccount: (operation, result) => {
    positiveId(operation, 'the new account Id', result.Id);
    return result;
  },
  EditAccount: (operation, result, params) => {
    positiveId(operation, 'the account Id', result.Id);
    if (result.Id !== params.Id_Account) {
      refuse(operation, `it answers with account ${result.Id} for an edit of account ${params.Id_Account}.`);
    }
    return result;
  },
  AddTranferToOtherAccount: (operation, result, params) => {
    const { Transaction1: a, Transaction2: b } = result;
    checkTransaction(operation, a, 'Transaction1');
    checkTransaction(operation, b, 'Transaction2');
    if (a.Id === b.Id) refuse(operation, `both sides of the transfer have id ${a.Id}.`);
    const asked = [params.Id_SourceAccount, params.Id_TargetAccount].sort((x, y) => x - y).join(',');
    const got = [a.Id_Account, b.Id_Account].sort((x, y) => x - y).join(',');
    if (asked !== got) refuse(operation, `its two sides are on accounts ${got}, not on ${asked} as asked.`);
    return result;
  },
  EditCarFuel: (operation, result, params) => {
    positiveId(operation, 'the refueling Id', result.Id);
    if (params.Id_CarFuel !== 0 && result.Id !== params.Id_CarFuel) {
      refuse(operation, `it answers with refueling ${result.Id} for an edit of refueling ${params.Id_CarFuel}.`);
    }
    return result;
  },
};

/** Runs the operation's check; returns the result to use (identical duplicates dropped). */
export function checkAnswer<N extends OperationName>(operation: N, result: ResultOf<N>, params: ParamsOf<N>): ResultOf<N> {
  return (ANSWER_CHECKS[operation] as Check<N>)(operation, result, params);
}

/** The record element a list answer repeats, and the cap on it, for a count before parsing. */
export function recordCap(operation: OperationName): { element: string; cap: number } | null {
  const shape = OPERATIONS[operation].result;
  if (shape.kind === 'categoryTree') return { element: CATEGORY_RECORD, cap: RECORD_CAPS.categories * 2 };
  if (shape.kind !== 'list') return null;
  const cap =
    shape.record === 'apiAccount' || shape.record === 'apiAccount2'
      ? RECORD_CAPS.accounts
      : shape.record === 'apiCarFuel'
        ? RECORD_CAPS.refuelings
        : shape.record === 'apiDefineTransaction' || shape.record === 'apiDefineTransaction2'
          ? RECORD_CAPS.templates
          : RECORD_CAPS.transactions;
  return { element: shape.record, cap };
}

/**
 * Refuses a list answer that holds more records than the app handles, by counting the record elements'
 * opening tags in the text (with or without a prefix) before anything is parsed.
 */
export function countBeforeParsing(operation: OperationName, body: string): void {
  const limit = recordCap(operation);
  if (!limit) return;
  const tag = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${limit.element}[\\s/>]`, 'g');
  let count = 0;
  while (tag.exec(body)) {
    if (++count > limit.cap) {
      refuse(operation, `it holds more than ${limit.cap.toLocaleString('en')} ${limit.element} records; the app handles at most that.`);
    }
  }
}
