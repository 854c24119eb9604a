/**
 * Reads are safe to repeat: a read that failed on the way (connection lost, timed out, garbled) is
 * tried again a few times before the failure counts. A fault, refused credentials or an answer over
 * the size cap would only repeat themselves, so they are not retried.
 */
import { sleep } from '../util/concurrency';
import { CallError } from './errors';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Pause before the second try; doubles for each further one. */
  backoffMs: number;
}

export const DEFAULT_READ_RETRY: RetryPolicy = { attempts: 3, backoffMs: 100 };

export function isTransient(error: unknown): boolean {
  return error instanceof CallError && (error.kind === 'not-sent' || error.kind === 'outcome-unknown' || error.kind === 'timeout' || error.kind === 'malformed');
}

export async function withRetry<T>(read: () => Promise<T>, policy: RetryPolicy = DEFAULT_READ_RETRY): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (attempt >= policy.attempts || !isTransient(e)) throw e;
      await sleep(policy.backoffMs * 2 ** (attempt - 1));
    }
  }
}
