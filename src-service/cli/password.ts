/**
 * A new password for the service's command line, never from the command line itself (the shell's
 * history, the process list): from BOOKKEEPING_PASSWORD, else asked twice at a terminal without echo.
 */
import { promptSecret, UsageError } from '../../src-node/cli';

export const PASSWORD_ENV = 'BOOKKEEPING_PASSWORD';

async function ask(question: string): Promise<string> {
  const answer = await promptSecret(question);
  if (answer === null) throw new UsageError('Cancelled.');
  return answer;
}

export async function readNewPassword(): Promise<string> {
  const fromEnv = process.env[PASSWORD_ENV];
  if (fromEnv !== undefined) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new UsageError(`Set ${PASSWORD_ENV} or run on a terminal to be asked for the password.`);
  }
  const first = await ask('Password: ');
  const second = await ask('Password again: ');
  if (first !== second) throw new UsageError('The passwords differ.');
  return first;
}
