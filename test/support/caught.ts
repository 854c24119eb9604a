/** What a call throws, for a look at it: the test fails when it throws nothing, or something of another class. */
import { expect } from 'vitest';

type ErrorClass<E> = abstract new (...args: never[]) => E;

export function caught<E>(call: () => unknown, type: ErrorClass<E>): E {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`It threw no ${type.name}.`);
}

/** What a promise is rejected with, as `caught`. */
export async function rejection<E>(call: () => Promise<unknown>, type: ErrorClass<E>): Promise<E> {
  const outcome = await call().then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) throw new Error(`It was not rejected with a ${type.name}.`);
  expect(outcome.error).toBeInstanceOf(type);
  return outcome.error as E;
}
