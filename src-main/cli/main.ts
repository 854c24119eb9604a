/**
 * `npm run cli -- <command> ...`: the process edge of the command line. Secrets are asked without echo
 * at a terminal, or read as lines of a piped stdin; the first Ctrl-C goes to the running command.
 */
import { promptSecret } from '../../src-node/cli';
import { runCli } from './cli';
import { SYNC_EXIT } from './exit-codes';

/** What Ctrl-C does: the running command's handler first (a sync cancels cleanly), a second Ctrl-C quits at once. */
let onInterrupt: (() => void) | null = null;
let interrupted = false;
process.on('SIGINT', () => {
  if (onInterrupt && !interrupted) {
    interrupted = true;
    onInterrupt();
    return;
  }
  process.exit(SYNC_EXIT.cancelled);
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  // Carriage return and erase-line: the countdown overwrites itself instead of scrolling.
  ...(process.stderr.isTTY ? { redraw: (text: string) => process.stderr.write(`\r\x1b[2K${text}`) } : {}),
  env: process.env,
  prompt: promptSecret,
  onInterrupt: (handler) => {
    onInterrupt = handler;
    interrupted = false;
  },
});
