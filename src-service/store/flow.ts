/**
 * Operations written once for both stores, as generator functions ("flows").
 *
 * A store call answers at once on SQLite (better-sqlite3 is synchronous) and with a promise on
 * PostgreSQL. An operation asks for each answer with `yield* awaited(store.x.y(...))`: on SQLite the
 * flow never suspends and runs to its end in the same call, exactly as the synchronous code before it
 * did (a read in one snapshot, a write in its savepoint of the group commit, the admin functions
 * synchronous); on PostgreSQL it suspends at each promise and `run` resumes it with the answer.
 * async/await could not do the first: every await waits for a microtask, so a SQLite write could no
 * longer run inside its savepoint alone, nor an admin function return its result.
 */

/** An answer now, or later (a promise). */
export type Maybe<T> = T | Promise<T>;

/** A flow: suspends only at the promises it yields; returns T. */
export type Flow<T> = Generator<Promise<unknown>, T, unknown>;

/** The answer of a store call, waited for only when it is a promise. */
export function* awaited<T>(value: Maybe<T>): Flow<T> {
  if (value instanceof Promise) return (yield value) as T;
  return value;
}

/** An object whose every method answers at once, where its type allows a promise (a store area on SQLite). */
export type AtOnce<A> = { readonly [K in keyof A]: A[K] extends (...args: infer P) => infer R ? (...args: P) => Awaited<R> : A[K] };

/**
 * `fn` of a value now, or of the promise's value once it is there. (Not named `then`: import() takes a
 * module that exports `then` for a promise.)
 */
export function mapMaybe<T, U>(value: Maybe<T>, fn: (value: T) => U): Maybe<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/** Runs a flow that must not suspend (every store call it makes answers at once: SQLite). */
export function runNow<T>(flow: Flow<T>): T {
  const step = flow.next();
  if (!step.done) {
    flow.return(undefined as never);
    throw new Error('A flow waited for a promise where the store answers at once.');
  }
  return step.value;
}

/** Runs a flow: its result at once when it never suspended, else a promise of it. */
export function run<T>(flow: Flow<T>): Maybe<T> {
  const step = flow.next();
  return step.done ? step.value : drive(flow, step.value);
}

/** Runs a flow, waiting for each promise it yields; resolves with its result or rejects with its error. */
export async function runFlow<T>(flow: Flow<T>): Promise<T> {
  return run(flow);
}

/** Resumes the flow with what each promise it yields settles to (a rejection is thrown into it). */
async function drive<T>(flow: Flow<T>, pending: Promise<unknown>): Promise<T> {
  for (;;) {
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await pending };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const step = outcome.ok ? flow.next(outcome.value) : flow.throw(outcome.error);
    if (step.done) return step.value;
    pending = step.value;
  }
}
