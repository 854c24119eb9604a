/** The AppError a call of the core was refused with; fails the test when the call went through. */
import { expect } from 'vitest';
import type { AppError } from '../../src-shared/app-api';

export async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'expected a refusal').not.toBeNull();
  return e as AppError;
}
