/**
 * A small, strict argument reader: positionals, `--name value`, `--name=value` and boolean switches.
 * An unknown option, a missing value or a malformed number is an error naming the option, so that a
 * typo never silently becomes a default.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OptionSpec {
  /** A switch takes no value. */
  switch?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  switches: Set<string>;
}

export function parseArgs(argv: readonly string[], specs: Record<string, OptionSpec>): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const spec = specs[name];
    if (!spec) throw new UsageError(`Unknown option --${name}.`);
    if (spec.switch) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value.`);
      switches.add(name);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`--${name} needs a value.`);
      i++;
    }
    if (options.has(name)) throw new UsageError(`--${name} is given more than once.`);
    options.set(name, value);
  }
  return { positionals, options, switches };
}

/** A whole number (ids, codes, kilometres), refusing anything else. */
export function integerArg(text: string | undefined, what: string): number {
  if (text === undefined) throw new UsageError(`${what} is required.`);
  if (!/^-?\d{1,16}$/.test(text.trim())) throw new UsageError(`${what} must be a whole number, not ${JSON.stringify(text)}.`);
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n)) throw new UsageError(`${what} is too large.`);
  return n;
}

export function booleanArg(text: string, what: string): boolean {
  switch (text.trim().toLowerCase()) {
    case 'true':
    case 'yes':
    case '1':
      return true;
    case 'false':
    case 'no':
    case '0':
      return false;
    default:
      throw new UsageError(`${what} must be true or false, not ${JSON.stringify(text)}.`);
  }
}
