/**
 * Reading a command line against its table, in three steps that a command line may interleave with its
 * own work (the app's opens its local copy between the second and the third, so that a foreign file is
 * refused the same way whatever else is wrong):
 * 1. `resolveCommand`: which command (or help) the first words name;
 * 2. `readArgs`: the syntax, with node:util's parseArgs: unknown options, missing values, repeats;
 * 3. `readValues`: required options, the positionals, and each value read by its table entry.
 * Every refusal is a UsageError with one sentence that names the option or argument.
 */
import { parseArgs } from 'node:util';
import { commandHelp, groupHelp, programHelp } from './help';
import {
  isGroup,
  type CommandSpec,
  type GroupSpec,
  type OptionTable,
  type OptionValues,
  type PositionalSpec,
  type PositionalValues,
  type ProgramSpec,
} from './table';

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Options as given (a switch as `true`, an option given more than once as its texts in order) and
 * positionals, checked against the table's names and types only.
 */
export interface RawArgs {
  readonly options: ReadonlyMap<string, string | true | readonly string[]>;
  readonly positionals: readonly string[];
}

/**
 * A dash and a digit start a value, never an option: local ids are negative (`edit-account -3`), and so
 * are amounts (`--amount -120.50`).
 */
const NUMBER_LIKE = /^-\d/;

/**
 * The syntax of `args`. parseArgs runs with `strict: false` and its tokens are checked here, because its
 * strict mode would refuse a negative number as a value ("ambiguous") or read it as a group of short
 * options, and would let a repeated option silently replace the first value.
 */
export function readArgs(args: readonly string[], table: OptionTable): RawArgs {
  const config = Object.fromEntries(
    Object.entries(table).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }]),
  );
  const { tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  const options = new Map<string, string | true | string[]>();
  const positionals: string[] = [];
  const numbersSeen = new Set<number>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    if (!token.rawName.startsWith('--') && NUMBER_LIKE.test(args[token.index]!)) {
      // parseArgs split "-12" into the short options -1 and -2: it is one positional.
      if (!numbersSeen.has(token.index)) positionals.push(args[token.index]!);
      numbersSeen.add(token.index);
      continue;
    }
    const spec = Object.hasOwn(table, token.name) ? table[token.name]! : undefined;
    if (!spec) throw new UsageError(`Unknown option ${token.rawName}.`);
    const flag = `--${token.name}`;
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`Option ${flag} takes no value.`);
      options.set(token.name, true);
      continue;
    }
    // Without "=", a value that looks like an option means the value was forgotten (`--name --all`).
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
      throw new UsageError(`Option ${flag} needs a value.`);
    }
    if (spec.multiple) {
      options.set(token.name, [...((options.get(token.name) as string[] | undefined) ?? []), token.value]);
      continue;
    }
    if (options.has(token.name)) throw new UsageError(`Option ${flag} is given more than once.`);
    options.set(token.name, token.value);
  }
  return { options, positionals };
}

/** "the account id" -> "The account id", the start of a sentence. */
export function sentenceStart(description: string): string {
  return description.charAt(0).toUpperCase() + description.slice(1);
}

/** The values of a command: positionals in order, then options in table order, each read by its entry. */
export function readValues(
  raw: RawArgs,
  table: OptionTable,
  positionalTable: readonly PositionalSpec[] = [],
): { options: Record<string, unknown>; positionals: unknown[] } {
  const positionals = positionalTable.map((spec, i) => {
    const text = raw.positionals[i];
    const what = sentenceStart(spec.description);
    if (text === undefined) {
      if (!spec.optional) throw new UsageError(`${what} is required.`);
      return undefined;
    }
    return spec.read ? spec.read(text, what) : text;
  });
  const extra = raw.positionals[positionalTable.length];
  if (extra !== undefined) throw new UsageError(`Unexpected argument ${JSON.stringify(extra)}.`);
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const given = raw.options.get(name);
    if (spec.type === 'boolean') {
      options[name] = given === true;
      continue;
    }
    if (given === undefined) {
      if (spec.required) throw new UsageError(`Option --${name} is required.`);
      options[name] = spec.multiple ? [] : undefined;
      continue;
    }
    const read = (text: string) => (spec.read ? spec.read(text, `--${name}`) : text);
    options[name] = Array.isArray(given) ? given.map(read) : read(given as string);
  }
  return { options, positionals };
}

/** Steps 2 and 3 at once, typed by the table, for a command line with nothing to do between them. */
export function parseCommand<const O extends OptionTable, const P extends readonly PositionalSpec[] = []>(
  args: readonly string[],
  options: O,
  positionals?: P,
): { options: OptionValues<O>; positionals: PositionalValues<P> } {
  const values = readValues(readArgs(args, options), options, positionals);
  return values as unknown as { options: OptionValues<O>; positionals: PositionalValues<P> };
}

/** Whether the arguments ask for help: `--help` or `-h` anywhere before a `--`. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export type Resolved<C extends CommandSpec> =
  /** Help was asked for (`asked`), or no command was named. */
  | { readonly kind: 'help'; readonly text: string; readonly asked: boolean }
  | { readonly kind: 'command'; readonly command: C; readonly args: readonly string[] }
  /** A group's first word without one of its actions: `problem` says which ones there are. */
  | { readonly kind: 'incomplete'; readonly group: GroupSpec<C>; readonly args: readonly string[]; readonly problem: UsageError };

function findEntry<C extends CommandSpec>(program: ProgramSpec<C>, name: string): C | GroupSpec<C> {
  const entry = program.commands.find((e) => (isGroup(e) ? e.group : e.name) === name);
  if (!entry) throw new UsageError(`Unknown command ${JSON.stringify(name)}; see --help.`);
  return entry;
}

/** The command the first words of `argv` name, or the help they ask for. */
export function resolveCommand<C extends CommandSpec>(program: ProgramSpec<C>, argv: readonly string[]): Resolved<C> {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'help', text: programHelp(program), asked: false };
  if (first === 'help' || first === '--help' || first === '-h') {
    // `--help --data x` (options after it) is the program's help too.
    if (rest[0] === undefined || rest[0].startsWith('-')) return { kind: 'help', text: programHelp(program), asked: true };
    const topic = resolveCommand(program, [...rest, '--help']);
    if (topic.kind === 'incomplete') throw topic.problem;
    return topic;
  }
  const entry = findEntry(program, first);
  if (!isGroup(entry)) {
    if (asksForHelp(rest)) return { kind: 'help', text: commandHelp(program, entry), asked: true };
    return { kind: 'command', command: entry, args: rest };
  }
  const action = rest[0];
  const named = entry.commands.find((c) => c.name === `${entry.group} ${action}`);
  if (named) {
    if (asksForHelp(rest.slice(1))) return { kind: 'help', text: commandHelp(program, named), asked: true };
    return { kind: 'command', command: named, args: rest.slice(1) };
  }
  if (asksForHelp(rest)) return { kind: 'help', text: groupHelp(program, entry), asked: true };
  const bare = entry.commands.find((c) => c.name === entry.group);
  if (bare && (action === undefined || action.startsWith('-'))) return { kind: 'command', command: bare, args: rest };
  const actions = entry.commands.filter((c) => c !== bare).map((c) => c.name.slice(entry.group.length + 1));
  const choice = actions.join(' or ');
  const problem =
    action === undefined || action.startsWith('-')
      ? new UsageError(`The ${entry.group} action (${choice}) is required.`)
      : new UsageError(`Unknown ${entry.group} action ${JSON.stringify(action)}; use ${choice}.`);
  return { kind: 'incomplete', group: entry, args: action === undefined || action.startsWith('-') ? rest : rest.slice(1), problem };
}
