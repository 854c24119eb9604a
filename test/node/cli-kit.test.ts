/**
 * The command-line kit: arguments read strictly by a command's table (node:util parseArgs underneath),
 * values read by the table's readers, commands and groups found by their words, help printed from the
 * table; and the tables of the app's and the service's command lines checked for what help needs.
 */
import { describe, expect, it } from 'vitest';
import { CLI_COMMAND_NAMES, helpText } from '../../src-main/cli/cli';
import { COMMANDS as CLI_COMMANDS } from '../../src-main/cli/commands';
import { integerArg } from '../../src-main/cli/values';
import { parseWebShellArgs, WEB_USAGE } from '../../src-main/web-shell/args';
import {
  commandHelp,
  groupHelp,
  isGroup,
  programHelp,
  readArgs,
  readValues,
  resolveCommand,
  usageLine,
  UsageError,
  type CommandSpec,
  type GroupSpec,
  type OptionTable,
  type ProgramSpec,
} from '../../src-node/cli';
import { COMMANDS as SERVICE_COMMANDS } from '../../src-service/cli/commands';
import { caught } from '../support/caught';

const spec = {
  name: { type: 'string', description: 'n' },
  all: { type: 'boolean', description: 'a', short: 'a' },
} as const satisfies OptionTable;

/** The message of the UsageError `run` throws. */
const refusal = (run: () => unknown): string => caught(run, UsageError).message;

describe('reading arguments', () => {
  it('reads options strictly', () => {
    expect(readArgs(['x', '--name', 'a b', '--all', 'y'], spec)).toEqual({
      positionals: ['x', 'y'],
      options: new Map<string, string | true>([
        ['name', 'a b'],
        ['all', true],
      ]),
    });
    expect(readArgs(['--name=v=w'], spec).options.get('name')).toBe('v=w');
    expect(readArgs(['--', '--name'], spec).positionals).toEqual(['--name']);
    expect(() => readArgs(['--nmae', 'x'], spec)).toThrow(UsageError);
    expect(() => readArgs(['--name'], spec)).toThrow(/needs a value/);
    expect(() => readArgs(['--all=1'], spec)).toThrow(/takes no value/);
    expect(() => readArgs(['--name', 'a', '--name', 'b'], spec)).toThrow(/more than once/);
    expect(integerArg('-12', 'n')).toBe(-12);
    expect(() => integerArg('1.5', 'n')).toThrow(/whole number/);
    expect(() => integerArg('99999999999999999', 'n')).toThrow();
  });

  it('refuses with one sentence that names the option', () => {
    expect(refusal(() => readArgs(['--nmae', 'x'], spec))).toBe('Unknown option --nmae.');
    expect(refusal(() => readArgs(['-x'], spec))).toBe('Unknown option -x.');
    expect(refusal(() => readArgs(['--name'], spec))).toBe('Option --name needs a value.');
    expect(refusal(() => readArgs(['--name', '--all'], spec))).toBe('Option --name needs a value.');
    expect(refusal(() => readArgs(['--all=yes'], spec))).toBe('Option --all takes no value.');
    expect(refusal(() => readArgs(['--name=a', '--name', 'b'], spec))).toBe('Option --name is given more than once.');
    expect(refusal(() => readArgs(['--constructor'], spec))).toBe('Unknown option --constructor.');
  });

  it('takes a dash and a digit as a value, never an option: negative ids and amounts', () => {
    expect(readArgs(['-3', '--name', '-120.50', '-12', '-a'], spec)).toEqual({
      positionals: ['-3', '-12'],
      options: new Map<string, string | true>([
        ['name', '-120.50'],
        ['all', true],
      ]),
    });
    expect(readArgs(['--name=--x'], spec).options.get('name')).toBe('--x');
    expect(readArgs(['--name', '-'], spec).options.get('name')).toBe('-');
  });

  it('collects an option marked multiple in order, each value read by its reader; none given is an empty list', () => {
    const table = {
      pick: { type: 'string', description: 'a pick', multiple: true, read: integerArg },
      name: { type: 'string', description: 'n' },
    } as const satisfies OptionTable;
    expect(readValues(readArgs(['--pick', '3', '--name', 'a', '--pick=-1'], table), table)).toEqual({
      options: { pick: [3, -1], name: 'a' },
      positionals: [],
    });
    expect(readValues(readArgs([], table), table).options).toEqual({ pick: [], name: undefined });
    expect(refusal(() => readValues(readArgs(['--pick', '1', '--pick', 'x'], table), table))).toBe(
      '--pick must be a whole number, not "x".',
    );
    expect(refusal(() => readArgs(['--name', 'a', '--pick', '1', '--name', 'b'], table))).toBe('Option --name is given more than once.');
    expect(commandHelp({ invocation: 'x', globalOptions: {} }, { name: 'c', summary: 's', options: table })).toMatch(
      /--pick <value> +a pick \(may be given more than once\)/,
    );
  });

  it('reads values by the table: required, positionals in order, each by its reader', () => {
    const table = {
      car: { type: 'string', description: 'the car', required: true, read: integerArg },
      note: { type: 'string', description: 'a note' },
      force: { type: 'boolean', description: 'force' },
    } as const satisfies OptionTable;
    const positionals = [
      { value: '<id>', description: 'the refueling id', read: integerArg },
      { value: '<name>', description: 'the name', optional: true },
    ] as const;
    expect(readValues(readArgs(['-7', '--car', '3'], table), table, positionals)).toEqual({
      options: { car: 3, note: undefined, force: false },
      positionals: [-7, undefined],
    });
    expect(readValues(readArgs(['1', 'x', '--car', '3', '--force', '--note', ''], table), table, positionals)).toEqual({
      options: { car: 3, note: '', force: true },
      positionals: [1, 'x'],
    });
    expect(refusal(() => readValues(readArgs(['1'], table), table, positionals))).toBe('Option --car is required.');
    expect(refusal(() => readValues(readArgs(['--car', '1'], table), table, positionals))).toBe('The refueling id is required.');
    expect(refusal(() => readValues(readArgs(['x', '--car', '1'], table), table, positionals))).toBe(
      'The refueling id must be a whole number, not "x".',
    );
    expect(refusal(() => readValues(readArgs(['1', '--car', 'three'], table), table, positionals))).toBe(
      '--car must be a whole number, not "three".',
    );
    expect(refusal(() => readValues(readArgs(['1', 'a', 'b', '--car', '1'], table), table, positionals))).toBe('Unexpected argument "b".');
  });
});

const add: CommandSpec = {
  name: 'car add',
  summary: 'Adds.',
  positionals: [
    { value: '<carId>', description: 'the car id' },
    { value: '<name>', description: 'the name' },
  ],
};
const remove: CommandSpec = { name: 'car remove', summary: 'Removes.', positionals: [{ value: '<carId>', description: 'the car id' }] };
const list: CommandSpec = { name: 'outbox', summary: 'Lists.' };
const retry: CommandSpec = {
  name: 'outbox retry',
  summary: 'Retries.',
  positionals: [{ value: '<id>', description: 'the id' }],
  options: { now: { type: 'boolean', description: 'at once' } },
};
const copy: CommandSpec = {
  name: 'copy',
  summary: 'Copies a file.',
  positionals: [{ value: '<from>', description: 'the source' }],
  options: {
    to: { type: 'string', value: '<file>', description: 'where to', required: true },
    mode: { type: 'string', value: '<octal>', description: 'its mode' },
    force: { type: 'boolean', description: 'overwrite' },
    secret: { type: 'string', description: 'refused', hidden: true },
  },
  notes: 'Nothing is copied over a file without --force.',
};
const car: GroupSpec = { group: 'car', summary: 'Cars.', commands: [add, remove] };
const outbox: GroupSpec = { group: 'outbox', summary: 'The outbox.', commands: [list, retry] };
const program: ProgramSpec = {
  invocation: 'tool --',
  globalOptions: {
    data: { type: 'string', value: '<db>', description: 'the data', inUsage: true },
    help: { type: 'boolean', short: 'h', description: 'help' },
  },
  commands: [copy, car, outbox],
  notes: 'Exit code 0 on success.',
};

describe('finding the command', () => {
  it('by its words, a group by its action, the bare form of a group when no action is given', () => {
    expect(resolveCommand(program, ['copy', 'a', '--to', 'b'])).toEqual({ kind: 'command', command: copy, args: ['a', '--to', 'b'] });
    expect(resolveCommand(program, ['car', 'add', '1', 'Octavia'])).toEqual({ kind: 'command', command: add, args: ['1', 'Octavia'] });
    expect(resolveCommand(program, ['outbox', '--data', 'x'])).toEqual({ kind: 'command', command: list, args: ['--data', 'x'] });
    expect(resolveCommand(program, ['outbox', 'retry', '-4'])).toEqual({ kind: 'command', command: retry, args: ['-4'] });
    const fly = resolveCommand(program, ['car', 'fly', '1']);
    expect(fly).toMatchObject({ kind: 'incomplete', group: car, args: ['1'] });
    expect(fly.kind === 'incomplete' && fly.problem.message).toBe('Unknown car action "fly"; use add or remove.');
    const none = resolveCommand(program, ['car', '--data', 'x']);
    expect(none.kind === 'incomplete' && [none.problem.message, none.args]).toEqual([
      'The car action (add or remove) is required.',
      ['--data', 'x'],
    ]);
    expect(refusal(() => resolveCommand(program, ['bogus']))).toBe('Unknown command "bogus"; see --help.');
  });

  it('answers --help, -h and help <command> with the help of what they name, before any other check', () => {
    expect(resolveCommand(program, [])).toEqual({ kind: 'help', text: programHelp(program), asked: false });
    expect(resolveCommand(program, ['--help'])).toEqual({ kind: 'help', text: programHelp(program), asked: true });
    expect(resolveCommand(program, ['--help', '--data', 'x'])).toEqual({ kind: 'help', text: programHelp(program), asked: true });
    expect(refusal(() => resolveCommand(program, ['help', 'bogus']))).toBe('Unknown command "bogus"; see --help.');
    expect(resolveCommand(program, ['copy', '--bogus', '-h'])).toEqual({ kind: 'help', text: commandHelp(program, copy), asked: true });
    expect(resolveCommand(program, ['help', 'car', 'remove'])).toEqual({ kind: 'help', text: commandHelp(program, remove), asked: true });
    expect(resolveCommand(program, ['car', '--help'])).toEqual({ kind: 'help', text: groupHelp(program, car), asked: true });
    // After "--" it is an argument.
    expect(resolveCommand(program, ['copy', '--', '--help'])).toMatchObject({ kind: 'command' });
  });
});

describe('help printed from the table', () => {
  it('shows required options bare, the others in brackets, and leaves hidden ones out', () => {
    expect(usageLine(copy)).toBe('copy <from> --to <file> [--mode <octal>] [--force]');
    expect(usageLine(copy, program.globalOptions)).toBe('copy <from> --to <file> [--mode <octal>] [--force] [--data <db>]');
    expect(commandHelp(program, copy)).toBe(
      [
        'Usage: tool -- copy <from> --to <file> [--mode <octal>] [--force] [--data <db>]',
        '',
        'Copies a file.',
        '',
        'Arguments:',
        '  <from>  the source',
        '',
        'Options:',
        '  --to <file>     where to (required)',
        '  --mode <octal>  its mode',
        '  --force         overwrite',
        '',
        'Options for every command:',
        '  --data <db>  the data',
        '  -h, --help   help',
        '',
        'Nothing is copied over a file without --force.',
      ].join('\n'),
    );
  });

  it('lists every command, a group as its forms', () => {
    expect(programHelp(program)).toBe(
      [
        'Usage: tool -- <command> [arguments] [--data <db>]',
        '',
        'Commands:',
        '  copy <from> --to <file> [--mode <octal>] [--force]',
        '      Copies a file.',
        '  car add <carId> <name> | car remove <carId>',
        '      Cars.',
        '  outbox | outbox retry <id> [--now]',
        '      The outbox.',
        '',
        'Options for every command:',
        '  --data <db>  the data',
        '  -h, --help   help',
        '',
        'Exit code 0 on success.',
      ].join('\n'),
    );
    expect(groupHelp(program, outbox)).toBe(
      [
        'Usage: tool -- outbox [--data <db>]',
        '       tool -- outbox retry <id> [--now] [--data <db>]',
        '',
        'The outbox.',
        '',
        '  outbox',
        '      Lists.',
        '  outbox retry <id> [--now]',
        '      Retries.',
        '      --now  at once',
        '',
        'Options for every command:',
        '  --data <db>  the data',
        '  -h, --help   help',
      ].join('\n'),
    );
  });
});

describe("the command lines' tables", () => {
  const commandsOf = (entries: readonly (CommandSpec | GroupSpec)[]) => entries.flatMap((e) => (isGroup(e) ? [...e.commands] : [e]));

  it('describe every option and argument, with names no global option takes, and help for each command', () => {
    for (const [entries, globals] of [
      [CLI_COMMANDS, ['data', 'json', 'key-file', 'key', 'log', 'help']],
      [SERVICE_COMMANDS, ['help']],
    ] as const) {
      const names = new Set<string>();
      for (const c of commandsOf(entries)) {
        expect(names.has(c.name), c.name).toBe(false);
        names.add(c.name);
        expect(c.summary.length, c.name).toBeGreaterThan(10);
        for (const [name, o] of Object.entries(c.options ?? {})) {
          expect(globals, `${c.name} --${name}`).not.toContain(name);
          expect(o.description.length, `${c.name} --${name}`).toBeGreaterThan(2);
          if (o.type === 'string') expect(o.value, `${c.name} --${name}`).toMatch(/^(<.+>|[\w|]+\|[\w|]+)$/);
        }
        for (const p of c.positionals ?? []) expect(p.description, `${c.name} ${p.value}`).toMatch(/^[a-z]/);
      }
    }
    for (const name of CLI_COMMAND_NAMES) expect(helpText(name)).toMatch(new RegExp(`^Usage: npm run cli -- ${name}\\b`));
    expect(helpText('car add')).toMatch(
      /^Usage: npm run cli -- car add <carId> <name> \[--data <local.sqlite>\] \[--json\]\n\nNames a car/,
    );
  });

  it("give the browser shell's arguments and its help", () => {
    expect(WEB_USAGE.split('\n')[0]).toBe('Usage: npm run web -- [--port <port>] [--data <file.sqlite>] [--host <host>] [--open] [--help]');
    expect(parseWebShellArgs(['-h', '--bogus'])).toMatchObject({ help: true });
    expect(parseWebShellArgs([])).toEqual({ port: 0, host: '127.0.0.1', dataFile: null, open: false, help: false });
    expect(() => parseWebShellArgs(['--port'])).toThrow(/^Option --port needs a value\.$/);
    expect(() => parseWebShellArgs(['x.sqlite'])).toThrow(/^Unexpected argument "x.sqlite"\.$/);
  });
});
