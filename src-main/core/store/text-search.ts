/**
 * Text search over stored transactions: a part of the description or of the amount's text, folded for
 * case and diacritics ("benzin" finds "Benzín", "skoda" finds "ŠKODA"). Three characters or more go
 * through the trigram index (transactions_text); shorter texts cannot use trigrams and are looked for
 * row by row with the same folding. Category names match in code (there are few categories), and the
 * same matcher checks the pending rows the outbox lays over the stored ones.
 */
import type Database from 'better-sqlite3';
import type { Prepare } from './record-sql';

/** Lower case without diacritics: what both sides of a comparison are reduced to. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The SQL function that checks a short needle row by row (registered on every store connection). */
export const CONTAINS_FOLDED = 'bookkeeping_contains_folded';

export function registerTextFunctions(db: Database.Database): void {
  db.function(CONTAINS_FOLDED, { deterministic: true }, (text: unknown, needle: unknown) =>
    foldText(String(text)).includes(String(needle)) ? 1 : 0,
  );
}

export interface TextQuery {
  /** A condition over `transactions` with named parameters prefixed `text`. */
  sql: string;
  params: Record<string, unknown>;
  /** The same test for a row that is not stored (a pending one). */
  matches(row: { description: string; amount: string; categoryId: number }): boolean;
  /** The trigram index's query (null for a short needle), and the categories whose names match. */
  fts: string | null;
  categories: readonly number[];
  /**
   * Set once the trigram index was asked (matchedRows): the rows are few enough to be read by their rowid
   * rather than through an index of the table.
   */
  few?: boolean;
}

/** Up to this many rows the index matched are read one by one by rowid; beyond, a pass over an index is cheaper. */
export const FEW_MATCHES = 50_000;

/**
 * The text's trigram query asked once, its rows then named by rowid: the search's sums and page, or the
 * register's page and counts, each read the rows without asking the index again (at a million
 * transactions "shop 42" costs the index some 40 ms a time).
 */
export function matchedRows(prepare: Prepare, text: TextQuery | null): TextQuery | null {
  if (!text || text.fts === null) return text;
  const rowids = prepare('SELECT rowid FROM transactions_text WHERE transactions_text MATCH ?').pluck().all(text.fts) as number[];
  const inRows = 'rowid IN (SELECT value FROM json_each(@textRowids))';
  return {
    ...text,
    sql: text.categories.length > 0 ? `(${inRows} OR category_id IN (SELECT value FROM json_each(@textCategories)))` : inRows,
    params: { textCategories: JSON.stringify(text.categories), textRowids: JSON.stringify(rowids) },
    few: text.categories.length === 0 && rowids.length <= FEW_MATCHES,
  };
}

/** "120,5" looks for the amount 120.5. */
const amountNeedle = (needle: string): string => (/^-?\d+,\d+$/.test(needle) ? needle.replace(',', '.') : needle);

/** An FTS5 string: the text in double quotes, its own quotes doubled. */
const ftsString = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/**
 * The search for `text` (null when it is empty after trimming). `categoryNames` are every category's
 * name; those that contain the text match their transactions.
 */
export function textQuery(text: string | undefined, categoryNames: Iterable<[number, string]>): TextQuery | null {
  const needle = foldText(text?.trim() ?? '');
  if (!needle) return null;
  const amount = amountNeedle(needle);
  const categories = [...categoryNames].filter(([, name]) => foldText(name).includes(needle)).map(([id]) => id);
  const inCategories = new Set(categories);
  const params: Record<string, unknown> = { textCategories: JSON.stringify(categories) };
  let sql: string;
  let fts: string | null = null;
  if ([...needle].length >= 3) {
    // An amount's text has only digits, a sign and a point: other needles are not looked for among them.
    fts = /^[-\d.]+$/.test(amount)
      ? `description : ${ftsString(needle)} OR amount : ${ftsString(amount)}`
      : `description : ${ftsString(needle)}`;
    params.textMatch = fts;
    sql = `(rowid IN (SELECT rowid FROM transactions_text WHERE transactions_text MATCH @textMatch) OR category_id IN (SELECT value FROM json_each(@textCategories)))`;
  } else {
    params.textNeedle = needle;
    params.textAmount = amount;
    sql = `(${CONTAINS_FOLDED}(description, @textNeedle) OR instr(amount, @textAmount) > 0 OR category_id IN (SELECT value FROM json_each(@textCategories)))`;
  }
  return {
    sql,
    params,
    fts,
    categories,
    matches: (row) => inCategories.has(row.categoryId) || row.amount.includes(amount) || foldText(row.description).includes(needle),
  };
}
