/**
 * Reading a password for the command line without putting it in the shell's history or the process
 * list: from the BOOKKEEPING_PASSWORD environment variable, else from a prompt on a terminal (not echoed,
 * asked twice when setting one).
 */
import { UsageError } from './cli-args';

export const PASSWORD_ENV = 'BOOKKEEPING_PASSWORD';

function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('Cancelled.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export async function readNewPassword(): Promise<string> {
  const fromEnv = process.env[PASSWORD_ENV];
  if (fromEnv !== undefined) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new UsageError(`Set ${PASSWORD_ENV} or run on a terminal to be asked for the password.`);
  }
  const first = await promptHidden('Password: ');
  const second = await promptHidden('Password again: ');
  if (first !== second) throw new UsageError('The passwords differ.');
  return first;
}
