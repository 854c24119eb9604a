/**
 * Text search over stored transactions: a part of the description or of the amount's text, folded for
 * case and diacritics ("benzin" finds "Benzín", "skoda" finds "ŠKODA"). Three characters or more go
 * through the trigram index (transactions_text); shorter texts cannot use trigrams and are looked for
 * row by row with the same folding. Category names match in code (there are few categories), and the
 * same matcher checks the pending rows the outbox lays over the stored ones.
 */
import type Database from 'better-sqlite3';

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
  if ([...needle].length >= 3) {
    params.textMatch = `description : ${ftsString(needle)} OR amount : ${ftsString(amount)}`;
    sql = `(rowid IN (SELECT rowid FROM transactions_text WHERE transactions_text MATCH @textMatch) OR category_id IN (SELECT value FROM json_each(@textCategories)))`;
  } else {
    params.textNeedle = needle;
    params.textAmount = amount;
    sql = `(${CONTAINS_FOLDED}(description, @textNeedle) OR instr(amount, @textAmount) > 0 OR category_id IN (SELECT value FROM json_each(@textCategories)))`;
  }
  return {
    sql,
    params,
    matches: (row) => inCategories.has(row.categoryId) || row.amount.includes(amount) || foldText(row.description).includes(needle),
  };
}
