/**
 * The service's command line: `npm run service -- <command> [options]` (see `--help`; the commands and
 * their tables are in cli/commands). Every command exits 0 on success and 1 with a one-line reason on
 * stderr otherwise; `serve` prints exactly one line, its address, on stdout once it is ready.
 */
import { parseCommand, resolveCommand, UsageError, type ProgramSpec } from '../src-node/cli';
import type { AnyServiceCommand } from './cli/command';
import { COMMANDS } from './cli/commands';
import { DataFileError, RuleError, ServiceOptionError } from './index';

const PROGRAM: ProgramSpec<AnyServiceCommand> = {
  invocation: 'npm run service --',
  globalOptions: { help: { type: 'boolean', short: 'h', description: 'this text, or a command\'s with "<command> --help"' } },
  commands: COMMANDS,
};

/** One line for a failure: the reason when it is the user's doing, never a stack. */
function reason(e: unknown): string {
  if (e instanceof UsageError || e instanceof RuleError || e instanceof ServiceOptionError || e instanceof DataFileError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return 'The port is already in use.';
  if (code === 'EADDRNOTAVAIL') return 'The address is not one of this machine.';
  if (code === 'EACCES') return 'Permission denied (a port below 1024 needs privileges).';
  return e instanceof Error ? e.message.split('\n', 1)[0]! : String(e);
}

async function main(argv: readonly string[]): Promise<void> {
  const resolved = resolveCommand(PROGRAM, argv);
  if (resolved.kind === 'incomplete') throw resolved.problem;
  if (resolved.kind === 'help') {
    console.log(resolved.text);
    // Nothing asked: the help, and a failure's exit code for a script that forgot the command.
    if (!resolved.asked) process.exitCode = 1;
    return;
  }
  const { command, args } = resolved;
  await command.run(parseCommand(args, { ...PROGRAM.globalOptions, ...command.options }).options);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`error: ${reason(e)}\n`);
  process.exitCode = 1;
});
