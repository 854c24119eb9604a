/**
 * The table a command line is written as: per command its name, summary, options and positionals. The
 * parser (./parse) reads arguments from it and the help (./help) is printed from it, so that what a
 * command accepts and what its help says cannot drift apart. Node only: the app's and the service's
 * command lines and the browser shell use it; the renderer never does.
 */

/** Reads an option's or a positional's text into its value, or throws a UsageError that names `what`. */
export type ValueReader<T = unknown> = (text: string, what: string) => T;

export interface OptionSpec {
  /** A string option takes a value (`--name value` or `--name=value`); a boolean one is a switch. */
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in help, such as `<file>`. */
  readonly value?: string;
  readonly description: string;
  readonly required?: boolean;
  /** A one-letter alias (`-h`). */
  readonly short?: string;
  /** Accepted only to be refused with a reason (a secret on the command line): not in help. */
  readonly hidden?: boolean;
  /** A global option shown in every command's usage line. */
  readonly inUsage?: boolean;
  /** Turns the text into the value the command works with, refusing what it cannot be. */
  readonly read?: ValueReader;
  /** A string option that may be given more than once (`--field a=mine --field b=theirs`): its values in order. */
  readonly multiple?: true;
}

export type OptionTable = { readonly [name: string]: OptionSpec };

export interface PositionalSpec {
  /** The placeholder in help, such as `<accountId>`. */
  readonly value: string;
  /** Lower case, as in "the account id": messages begin with it ("The account id is required."). */
  readonly description: string;
  readonly optional?: boolean;
  readonly read?: ValueReader;
}

export interface CommandSpec<O extends OptionTable = OptionTable, P extends readonly PositionalSpec[] = readonly PositionalSpec[]> {
  /** The words that name it: `transfer`, or `outbox retry` for a command of a group. */
  readonly name: string;
  readonly summary: string;
  readonly options?: O;
  readonly positionals?: P;
  /** A closing paragraph of the command's help. */
  readonly notes?: string;
}

/** Commands that share a first word (`car add`, `car remove`); one of them may be the bare word (`outbox`). */
export interface GroupSpec<C extends CommandSpec = CommandSpec> {
  readonly group: string;
  readonly summary: string;
  readonly commands: readonly C[];
}

export interface ProgramSpec<C extends CommandSpec = CommandSpec> {
  /** How it is started, as help shows it: `npm run cli --`. */
  readonly invocation: string;
  /** Options every command takes. */
  readonly globalOptions: OptionTable;
  readonly commands: readonly (C | GroupSpec<C>)[];
  /** The closing paragraph of the program's help. */
  readonly notes?: string;
}

type ReadValue<S> = S extends { read: ValueReader<infer T> } ? T : string;

/** The values a command's options give it: a switch is a boolean; an option not given is undefined unless required. */
export type OptionValues<O extends OptionTable> = {
  readonly [K in keyof O]: O[K] extends { type: 'boolean' }
    ? boolean
    : O[K] extends { multiple: true }
      ? readonly ReadValue<O[K]>[]
      : O[K] extends { required: true }
        ? ReadValue<O[K]>
        : ReadValue<O[K]> | undefined;
};

/** The values of a command's positionals, in order. */
export type PositionalValues<P extends readonly PositionalSpec[]> = {
  readonly [I in keyof P]: P[I] extends { optional: true } ? ReadValue<P[I]> | undefined : ReadValue<P[I]>;
};

export function isGroup<C extends CommandSpec>(entry: C | GroupSpec<C>): entry is GroupSpec<C> {
  return 'group' in entry;
}
