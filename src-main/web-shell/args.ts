/** Command-line arguments of `npm run web`: one table, read and shown in help by the command-line kit. */
import { asksForHelp, commandHelp, parseCommand, UsageError, type CommandSpec } from '../../src-node/cli';
import { integerArg } from '../cli/values';
import { isListenHost } from './security';

export interface WebShellArgs {
  port: number;
  host: string;
  dataFile: string | null;
  open: boolean;
  help: boolean;
}

function portArg(text: string, what: string): number {
  const n = integerArg(text, what);
  if (n < 0 || n > 65535) throw new UsageError(`${what} must be a number from 0 to 65535, not ${JSON.stringify(text)}.`);
  return n;
}

function loopbackArg(text: string, what: string): string {
  if (!isListenHost(text)) {
    throw new UsageError(`${what} must be a loopback address (127.0.0.1, ::1 or localhost), not ${JSON.stringify(text)}.`);
  }
  return text;
}

const WEB_SHELL = {
  name: '',
  summary: 'Serves the app to a browser on this machine only, for where Electron cannot run.',
  options: {
    port: { type: 'string', value: '<port>', description: 'port to listen on (default: 0 = any free port)', read: portArg },
    data: { type: 'string', value: '<file.sqlite>', description: "the local copy (default: the app's user-data folder)" },
    host: {
      type: 'string',
      value: '<host>',
      description: '127.0.0.1 (default), ::1 or localhost; never another address',
      read: loopbackArg,
    },
    open: {
      type: 'boolean',
      description: 'open the app in the default browser (through a one-time page of your own, never an address with the key)',
    },
    help: { type: 'boolean', short: 'h', description: 'this text' },
  },
  notes:
    'Prints the address to open; it carries a key that changes every run (with --open, only if the browser does not come for the app).',
} as const satisfies CommandSpec;

export const WEB_USAGE = commandHelp({ invocation: 'npm run web --', globalOptions: {} }, WEB_SHELL);

export function parseWebShellArgs(argv: string[]): WebShellArgs {
  const defaults = { port: 0, host: '127.0.0.1', dataFile: null, open: false };
  if (asksForHelp(argv)) return { ...defaults, help: true };
  const { options: o } = parseCommand(argv, WEB_SHELL.options);
  return { port: o.port ?? defaults.port, host: o.host ?? defaults.host, dataFile: o.data ?? defaults.dataFile, open: o.open, help: false };
}
