/**
 * What a command of the command line is: its table entry (name, summary, options, positionals; see
 * src-node/cli) and its handler, which gets the values read by that table and the app core.
 */
import type { CommandSpec, GroupSpec, OptionTable, OptionValues, PositionalSpec, PositionalValues } from '../../src-node/cli';
import type { AppCore, AppCoreOptions } from '../core/app/app-core';
import type { AppLog } from '../core/log/app-log';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Asks for a secret; null when no one can answer. */
  prompt?: (question: string) => Promise<string | null>;
  /** Extra core options (tests: short timeouts). */
  core?: Partial<AppCoreOptions>;
  /** On a terminal: writes over the current line of stderr (a countdown redrawn in place); absent elsewhere. */
  redraw?: (text: string) => void;
  /** Registers what Ctrl-C does while a command runs (the process edge calls it on SIGINT). */
  onInterrupt?: (handler: (() => void) | null) => void;
}

/** What a handler gets that works on the data file's files without opening it. */
export interface FilesContext<O extends OptionTable = OptionTable, P extends readonly PositionalSpec[] = readonly PositionalSpec[]> {
  readonly dataFile: string;
  readonly options: OptionValues<O>;
  readonly positionals: PositionalValues<P>;
  readonly io: CliIo;
  /** Prints the result: JSON as is with --json, else the text. */
  out(value: unknown, text: string): void;
  /** The log `diagnostics` names (what happened to the local copy goes there). */
  readonly log: AppLog;
}

export interface CommandContext<
  O extends OptionTable = OptionTable,
  P extends readonly PositionalSpec[] = readonly PositionalSpec[],
> extends FilesContext<O, P> {
  readonly core: AppCore;
  /** The client key of --key-file, when given. */
  readonly clientKey: string | undefined;
}

export interface CliCommand<
  O extends OptionTable = OptionTable,
  P extends readonly PositionalSpec[] = readonly PositionalSpec[],
> extends CommandSpec<O, P> {
  /** Resolves with the exit code, or nothing for 0. */
  run?(ctx: CommandContext<O, P>): Promise<number | void>;
  /** Instead of `run`: works on the data file's files without opening it (the local copy may be damaged). */
  runOnFiles?(ctx: FilesContext<O, P>): number;
}

/** A command of any table; its handler's values are typed where it is defined (defineCommand). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCliCommand = CliCommand<any, any>;

/** A command whose handler's values are typed by its own table. */
export function defineCommand<const O extends OptionTable = Record<never, never>, const P extends readonly PositionalSpec[] = []>(
  command: CliCommand<O, P>,
): CliCommand<O, P> {
  return command;
}

export function defineGroup(group: string, summary: string, commands: readonly AnyCliCommand[]): GroupSpec<AnyCliCommand> {
  return { group, summary, commands };
}

/** A command without arguments that prints one read of the core. */
export function listing<T>(name: string, summary: string, read: (core: AppCore) => Promise<T>, text: (value: T) => string): CliCommand {
  return {
    name,
    summary,
    async run(ctx) {
      const value = await read(ctx.core);
      ctx.out(value, text(value));
    },
  };
}

/** The answer to a queued write. */
export function written(ctx: Pick<CommandContext, 'out'>, result: { outboxId: number; id: number }, what: string): void {
  ctx.out(result, `${what} (id ${result.id}); queued as outbox entry ${result.outboxId}. Run "sync" to send it.`);
}

/**
 * The fields of a record that the options given change: with `fieldOf` = `{ option: field }`, the
 * `{ field: value }` of each option given, typed by the option's value, to spread over the record.
 */
export function fieldsGiven<V extends object, M extends { readonly [K in keyof V]?: string }>(
  values: V,
  fieldOf: M,
): { [K in keyof M & keyof V as M[K] & string]?: Exclude<V[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [option, field] of Object.entries(fieldOf) as [keyof V & string, string][]) {
    if (values[option] !== undefined) out[field] = values[option];
  }
  return out as { [K in keyof M & keyof V as M[K] & string]?: Exclude<V[K], undefined> };
}
