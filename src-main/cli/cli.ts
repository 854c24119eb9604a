/**
 * The headless command line, on the same app core as the screens: finds the command its table names
 * (commands/), reads its arguments by that table, opens the local copy and runs the handler. The answer
 * is text (or JSON with --json) on stdout, and an exit code (exit-codes.ts) with one line on stderr
 * when it fails.
 *
 * Secrets: the password is never stored; it comes from BOOKKEEPING_PASSWORD or a prompt, each run
 * that talks to the service. The client key is given once (BOOKKEEPING_CLIENT_KEY, --key-file or the
 * prompt) and kept sealed with a key derived from the password (see PromptSecretStore), so later runs
 * need only the password. A key on the command line itself is refused.
 */
import { join } from 'node:path';
import {
  isGroup,
  programHelp,
  readArgs,
  readKeyFile,
  readValues,
  refuseKeyInArguments,
  refusedKeyOption,
  resolveCommand,
  UsageError,
  type OptionTable,
  type ProgramSpec,
  type RawArgs,
} from '../../src-node/cli';
import { AppError } from '../../src-shared/app-api';
import { appVersion } from '../app-bridge/app-version';
import { createAppCore, type AppCore } from '../core/app/app-core';
import { openAppLog, type AppLog } from '../core/log/app-log';
import { PromptSecretStore } from '../core/secrets';
import type { AnyCliCommand, CliIo, FilesContext } from './command';
import { COMMANDS } from './commands';
import { SYNC_EXIT } from './exit-codes';

export type { CliIo } from './command';

export const DATA_ENV = 'BOOKKEEPING_DATA';
const KEY_WAYS = 'BOOKKEEPING_CLIENT_KEY, in a file with --key-file <file>, or at the prompt';

const GLOBAL_OPTIONS = {
  data: { type: 'string', value: '<local.sqlite>', description: `the local copy (or ${DATA_ENV})`, inUsage: true },
  json: { type: 'boolean', description: 'machine-readable output', inUsage: true },
  'key-file': {
    type: 'string',
    value: '<file>',
    description:
      'a file whose first line is the client key, when the service is asked (else BOOKKEEPING_CLIENT_KEY, the prompt, or the one kept sealed by connect); never the key itself on the command line',
  },
  // Read only to be refused with the reason (clientKeyOption).
  key: refusedKeyOption(KEY_WAYS),
  log: { type: 'string', value: '<file>', description: "where unexpected failures are logged (default: the data file's name with .log)" },
  help: { type: 'boolean', short: 'h', description: 'this text, or a command\'s with "<command> --help"' },
} as const satisfies OptionTable;

const PROGRAM: ProgramSpec<AnyCliCommand> = {
  invocation: 'npm run cli --',
  globalOptions: GLOBAL_OPTIONS,
  commands: COMMANDS,
  notes:
    'The password comes from BOOKKEEPING_PASSWORD or a prompt, each time the service is asked; it is never stored.\n' +
    `Exit code ${SYNC_EXIT.delivered} on success, ${SYNC_EXIT.failed} with a one-line reason on stderr on failure; "sync --help" tells its own codes.`,
};

/** The program's help, or one command's (`car add`) or group's (`outbox`). */
export function helpText(command?: string): string {
  if (command === undefined) return programHelp(PROGRAM);
  const resolved = resolveCommand(PROGRAM, [...command.split(' '), '--help']);
  return resolved.kind === 'help' ? resolved.text : programHelp(PROGRAM);
}

/** The commands' first words (for tests that run every one). */
export const CLI_COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => (isGroup(c) ? c.group : c.name));

/**
 * The client key of --key-file (its first line), or none. A key given as --key itself is refused: the
 * command line ends up in the shell's history and in every user's process list.
 */
function clientKeyOption(raw: RawArgs): string | undefined {
  refuseKeyInArguments(raw.options.has('key'), KEY_WAYS);
  const file = raw.options.get('key-file') as string | undefined;
  return file === undefined ? undefined : readKeyFile(file);
}

/** The version in package.json (the command line runs from the project's sources). */
const APP_VERSION = appVersion(join(import.meta.dirname, '..', '..'));

/** One line for a failure: the reason when it is one the user can act on, never a stack. */
function failureLine(e: unknown, core: AppCore | null): string {
  let message = e instanceof UsageError || e instanceof AppError ? e.message : 'Unexpected failure.';
  if (e instanceof AppError && (e.kind === 'not-connected' || e.kind === 'password-needed') && core) {
    message +=
      ' Set BOOKKEEPING_PASSWORD or answer the prompt; give the client key (BOOKKEEPING_CLIENT_KEY or --key-file) if it is not kept yet.';
  }
  if (e instanceof AppError && (e.code === 'certificateUntrusted' || e.code === 'certificateChanged')) {
    // A certificate no authority vouches for may be trusted by its fingerprint: here on the command line.
    message += " If the fingerprint is your service's, run connect again with --trust-certificate <fingerprint>.";
  }
  return `error: ${message.replace(/\s+/g, ' ').trim()}`;
}

/**
 * Runs one command line; returns the exit code. The order of the checks is kept on purpose: the syntax
 * of the arguments, then the local copy is opened (a foreign or damaged file is refused the same way
 * whatever the command), then the command's own arguments and values.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let core: AppCore | null = null;
  let appLog: AppLog | null = null;
  try {
    const resolved = resolveCommand(PROGRAM, argv);
    if (resolved.kind === 'help') {
      io.stdout(resolved.text);
      return 0;
    }
    const command = resolved.kind === 'command' ? resolved.command : undefined;
    const table: OptionTable = { ...GLOBAL_OPTIONS, ...command?.options };
    const raw = readArgs(resolved.args, table);
    const dataFile = (raw.options.get('data') as string | undefined) ?? io.env[DATA_ENV];
    if (!dataFile) throw new UsageError(`--data <local.sqlite> is required (or set ${DATA_ENV}).`);
    const json = raw.options.has('json');
    const out = (value: unknown, text: string) => io.stdout(json ? JSON.stringify(value, null, 2) : text);
    const values = () => readValues(raw, table, command?.positionals);
    // Beside the data file unless --log says where; written only when there is something to log.
    appLog = openAppLog((raw.options.get('log') as string | undefined) ?? `${dataFile}.log`);
    if (command?.runOnFiles) return command.runOnFiles({ dataFile, ...values(), io, out, log: appLog } as FilesContext);
    const clientKey = clientKeyOption(raw);
    core = createAppCore({
      ...io.core,
      dataFile,
      secrets: (persistence) =>
        new PromptSecretStore({
          persistence,
          env: io.env,
          refusedAgain: 'key',
          ...(clientKey !== undefined ? { clientKey } : {}),
          ...(io.prompt ? { prompt: io.prompt } : {}),
        }),
      appLog,
      about: { version: APP_VERSION, runtime: `Node ${process.versions.node}` },
    });
    if (resolved.kind === 'incomplete') throw resolved.problem;
    return (await resolved.command.run!({ core, clientKey, dataFile, ...values(), io, out, log: appLog })) ?? 0;
  } catch (e) {
    io.stderr(failureLine(e, core));
    return SYNC_EXIT.failed;
  } finally {
    await core?.close();
    appLog?.close();
  }
}
