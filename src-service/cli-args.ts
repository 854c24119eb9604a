/**
 * Command-line arguments: `--name value` or `--name=value` options checked against a command's list,
 * so that a typo or a missing value is an error naming the option rather than something ignored.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface OptionSpec {
  readonly name: string;
  readonly value: string;
  readonly help: string;
  readonly required?: boolean;
}

export function parseOptions(args: readonly string[], specs: readonly OptionSpec[]): Map<string, string> {
  const known = new Set(specs.map((s) => s.name));
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`Unexpected argument ${JSON.stringify(arg)}.`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (!known.has(name)) throw new UsageError(`Unknown option --${name}.`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`Option --${name} needs a value.`);
      i++;
    }
    if (out.has(name)) throw new UsageError(`Option --${name} is given more than once.`);
    out.set(name, value);
  }
  for (const s of specs) {
    if (s.required && !out.has(s.name)) throw new UsageError(`Option --${s.name} is required.`);
  }
  return out;
}

/** A whole number within bounds, or a UsageError naming the option. */
export function intOption(value: string, option: string, min: number, max: number): number {
  if (!/^-?\d{1,16}$/.test(value)) throw new UsageError(`--${option} must be a whole number.`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${option} must be from ${min} to ${max}.`);
  return n;
}

/** One of a few names or their numeric codes (`read` or `1`). */
export function codeOption(value: string, option: string, codes: Readonly<Record<string, number>>): number {
  const byName = codes[value.toLowerCase()];
  if (byName !== undefined) return byName;
  if (/^\d+$/.test(value) && Object.values(codes).includes(Number(value))) return Number(value);
  const list = Object.entries(codes)
    .map(([name, code]) => `${name} (${code})`)
    .join(', ');
  throw new UsageError(`--${option} must be one of ${list}.`);
}
