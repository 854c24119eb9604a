/**
 * Asking for a secret (a password, a client key) without putting it in the shell's history or the
 * process list: typed at a terminal without echo, or one line of a piped stdin.
 */
import { createInterface } from 'node:readline';

/** Lines of a piped stdin, read once and handed out in order; null once it has ended. */
let piped: { lines: string[]; ended: boolean; waiting: ((line: string | null) => void)[] } | null = null;
function pipedLine(): Promise<string | null> {
  if (!piped) {
    const state = { lines: [] as string[], ended: false, waiting: [] as ((line: string | null) => void)[] };
    piped = state;
    const rl = createInterface({ input: process.stdin, terminal: false });
    rl.on('line', (line) => {
      const w = state.waiting.shift();
      if (w) w(line);
      else state.lines.push(line);
      if (state.waiting.length === 0) process.stdin.pause();
    });
    rl.on('close', () => {
      state.ended = true;
      for (const w of state.waiting.splice(0)) w(null);
    });
  }
  const state = piped;
  if (state.lines.length) return Promise.resolve(state.lines.shift()!);
  if (state.ended) return Promise.resolve(null);
  process.stdin.resume();
  return new Promise((resolve) => state.waiting.push(resolve));
}

/** One answer: hidden when typed at a terminal (null on Ctrl-C), a line when piped (null at its end). */
export function promptSecret(question: string): Promise<string | null> {
  const input = process.stdin;
  if (!input.isTTY) return pipedLine();
  return new Promise((resolve) => {
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    let answer = '';
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish(answer);
          return;
        }
        if (ch === '\u0003') {
          finish(null);
          return;
        }
        if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
        else answer += ch;
      }
    };
    const finish = (value: string | null) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      resolve(value);
    };
    input.on('data', onData);
  });
}
