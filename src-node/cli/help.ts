/** `--help` of a command line, printed from the same table its arguments are read by. */
import { isGroup, type CommandSpec, type GroupSpec, type OptionSpec, type OptionTable, type ProgramSpec } from './table';

const WIDTH = 100;
/** Option names longer than this do not push every description right; theirs starts two spaces after. */
const MAX_NAME_COLUMN = 30;

/** Words of `text` in lines of at most WIDTH characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number): string {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && pad.length + line.length + 1 + word.length > WIDTH) {
        lines.push(pad + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(pad + line);
  }
  return lines.join('\n');
}

const visible = (table: OptionTable | undefined): [string, OptionSpec][] => Object.entries(table ?? {}).filter(([, o]) => !o.hidden);

function flag(name: string, o: OptionSpec): string {
  const short = o.short ? `-${o.short}, ` : '';
  return o.type === 'boolean' ? `${short}--${name}` : `${short}--${name} ${o.value ?? '<value>'}`;
}

/** `transfer --from <accountId> ... [--date <YYYY-MM-DDTHH:mm>]`: required options bare, the others in brackets. */
export function usageLine(command: CommandSpec, globals: OptionTable = {}): string {
  const words = command.name ? [command.name] : [];
  for (const p of command.positionals ?? []) words.push(p.optional ? `[${p.value}]` : p.value);
  const options = [...visible(command.options), ...visible(globals).filter(([, o]) => o.inUsage)];
  for (const [name, o] of options) {
    const text = o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? '<value>'}`;
    words.push(o.required ? text : `[${text}]`);
  }
  return words.join(' ');
}

/** Two columns: names, then what they are. */
function columns(rows: [string, string][]): string[] {
  const width = Math.min(MAX_NAME_COLUMN, Math.max(0, ...rows.map(([name]) => name.length)));
  return rows.map(([name, text]) => {
    const head = `  ${name.padEnd(width)}  `;
    return head + wrap(text, head.length).trimStart();
  });
}

function optionRows(table: OptionTable | undefined): [string, string][] {
  const notes = (o: OptionSpec) => [o.required ? 'required' : '', o.multiple ? 'may be given more than once' : ''].filter(Boolean);
  return visible(table).map(([name, o]) => {
    const said = notes(o);
    return [flag(name, o), said.length ? `${o.description} (${said.join('; ')})` : o.description];
  });
}

function section(title: string, rows: [string, string][]): string[] {
  return rows.length ? ['', `${title}:`, ...columns(rows)] : [];
}

function globalSection(program: Pick<ProgramSpec, 'globalOptions'>): string[] {
  return section('Options for every command', optionRows(program.globalOptions));
}

/** The usage line of a command, or the forms of a group joined by `|`, without the global options. */
function entryLine(entry: CommandSpec | GroupSpec): string {
  return isGroup(entry) ? entry.commands.map((c) => usageLine(c)).join(' | ') : usageLine(entry);
}

export function programHelp(program: ProgramSpec): string {
  const globals = visible(program.globalOptions)
    .filter(([, o]) => o.inUsage)
    .map(([name, o]) => ` [${o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? '<value>'}`}]`)
    .join('');
  const commands = program.commands.flatMap((entry) => [`  ${entryLine(entry)}`, wrap(entry.summary, 6)]);
  return [
    `Usage: ${program.invocation} <command> [arguments]${globals}`,
    '',
    'Commands:',
    ...commands,
    ...globalSection(program),
    ...(program.notes ? ['', wrap(program.notes, 0)] : []),
  ].join('\n');
}

/** One command's help; `program` gives the invocation and the options every command takes. */
export function commandHelp(program: Pick<ProgramSpec, 'invocation' | 'globalOptions'>, command: CommandSpec): string {
  const args = (command.positionals ?? []).map((p): [string, string] => [
    p.value,
    p.optional ? `${p.description} (optional)` : p.description,
  ]);
  return [
    `Usage: ${program.invocation} ${usageLine(command, program.globalOptions)}`,
    '',
    wrap(command.summary, 0),
    ...section('Arguments', args),
    ...section('Options', optionRows(command.options)),
    ...globalSection(program),
    ...(command.notes ? ['', wrap(command.notes, 0)] : []),
  ].join('\n');
}

/** A group's help: each form's usage, then what each does. */
export function groupHelp(program: ProgramSpec, group: GroupSpec): string {
  const [first, ...others] = group.commands.map((c) => `${program.invocation} ${usageLine(c, program.globalOptions)}`);
  const forms = group.commands.flatMap((c) => [
    `  ${usageLine(c)}`,
    wrap(c.summary, 6),
    ...optionRows(c.options).map(([name, text]) => `      ${name}  ${text}`),
  ]);
  return [`Usage: ${first}`, ...others.map((o) => `       ${o}`), '', wrap(group.summary, 0), '', ...forms, ...globalSection(program)].join(
    '\n',
  );
}
