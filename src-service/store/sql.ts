/**
 * Statements as data: the text (with its parameters as the database's driver takes them), what it
 * answers and how a tuple of its answer becomes a row, how its parameters are bound; and the connection
 * of either database that runs them. `StatementWriter` makes them from a dialect (dialect.ts), the
 * tables (schema.ts) and the selections of rows (rows.ts); statements.ts is the catalogue.
 */
import type { Dialect } from './dialect';
import type { Maybe } from './flow';
import type { RowOf, Selection, TableName } from './schema';

/** What a statement answers: rows (each made by `row`), one value per row, or nothing but what it changed (or an id). */
export type Answer = 'rows' | 'values' | 'none';

export interface Statement<R = unknown, P = readonly unknown[]> {
  /** Unique among the statements: a PostgreSQL connection prepares each under its name. */
  readonly name: string;
  /** Its place among the dialect's statements (0, 1, ...): where a SQLite connection keeps it prepared. */
  readonly index: number;
  readonly text: string;
  readonly answers: Answer;
  /** The row of each tuple answered (`values`: its first column). */
  readonly row: (tuple: readonly unknown[]) => R;
  /** The parameters' values in the order of the statement's parameters. */
  readonly bind: (params: P) => readonly unknown[];
}

/** One connection (or pool) of either database, as the seam's areas (data.ts) use it. */
export interface SqlConnection<S = unknown> {
  /** The statements of its database (statements.ts). */
  readonly statements: S;
  /** Every row the statement answers. */
  all<R, P>(s: Statement<R, P>, params: P): Maybe<R[]>;
  /** Its first row, if any. */
  get<R, P>(s: Statement<R, P>, params: P): Maybe<R | undefined>;
  /** Runs a statement that changes rows; how many it changed. */
  run<P>(s: Statement<unknown, P>, params: P): Maybe<number>;
  /** Runs an INSERT that answers the new row's id (the dialect's `returningId`): the id. */
  insert<P>(s: Statement<unknown, P>, params: P): Maybe<number>;
}

type Aliases = Partial<Record<TableName, string>>;

const asGiven = <P>(params: P) => params as readonly unknown[];
const firstColumn = (tuple: readonly unknown[]) => tuple[0];

/** Makes the statements of one dialect: each text once, on one line, its `?`s as the driver wants them. */
export class StatementWriter {
  private made = 0;

  constructor(readonly d: Dialect) {}

  /** The text as the driver takes it: on one line, its parameters numbered where the dialect numbers them. */
  text(text: string): string {
    return this.d.parameters(text.replace(/\s+/g, ' ').trim());
  }

  statement<R, P>(
    name: string,
    text: string,
    answers: Answer,
    row: (t: readonly unknown[]) => R,
    bind: (p: P) => readonly unknown[],
  ): Statement<R, P> {
    return { name, index: this.made++, text: this.text(text), answers, row, bind };
  }

  /** The selection's columns, each `alias.column` where its table has an alias (flags read as 0/1). */
  columns(selection: Selection<unknown>, aliases: Aliases = {}): string {
    return selection.columns
      .map((c) => {
        const alias = aliases[c.table];
        const qualified = alias ? `${alias}.${c.name}` : c.name;
        const read = c.type === 'flag' ? this.d.flag(qualified) : qualified;
        return read === qualified ? read : `${read} AS ${c.name}`;
      })
      .join(', ');
  }

  /** `SELECT <the selection's columns> <rest>`: rows of the selection. */
  rows<R, P extends readonly unknown[]>(name: string, selection: Selection<R>, rest: string, aliases?: Aliases): Statement<R, P> {
    const text = `SELECT ${this.columns(selection as Selection<unknown>, aliases)} ${rest}`;
    return this.statement(name, text, 'rows', selection.fromTuple, asGiven);
  }

  /** A statement answering one value per row. */
  values<V, P extends readonly unknown[]>(name: string, text: string): Statement<V, P> {
    return this.statement(name, text, 'values', firstColumn as (t: readonly unknown[]) => V, asGiven);
  }

  /** A statement that changes rows. */
  change<P extends readonly unknown[]>(name: string, text: string): Statement<never, P> {
    return this.statement(name, text, 'none', firstColumn as () => never, asGiven);
  }

  /** The text of an INSERT of these columns (without RETURNING). */
  insertText(table: TableName, columns: readonly string[]): string {
    return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  }

  /** An INSERT of a row of these columns, bound by name; it answers the new id. */
  insert<T extends TableName, K extends keyof RowOf<T> & string>(
    name: string,
    table: T,
    columns: readonly K[],
  ): Statement<never, Pick<RowOf<T>, K>> {
    const text = this.insertText(table, columns) + this.d.returningId;
    return this.statement(name, text, 'none', firstColumn as () => never, (row: Pick<RowOf<T>, K>) => columns.map((c) => row[c]));
  }

  /** An UPDATE of these columns of the row `id`, bound by name. */
  update<T extends TableName, K extends keyof RowOf<T> & string>(
    name: string,
    table: T,
    columns: readonly K[],
  ): Statement<never, Pick<RowOf<T>, K> & { id: number }> {
    const text = `UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;
    return this.statement(name, text, 'none', firstColumn as () => never, (row: Pick<RowOf<T>, K> & { id: number }) => [
      ...columns.map((c) => row[c]),
      row.id,
    ]);
  }

  /** A statement only where the dialect offers what it needs; null elsewhere. */
  only<S>(available: boolean, make: () => S): S | null {
    return available ? make() : null;
  }
}
