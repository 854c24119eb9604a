/**
 * Every operator function (operator.ts, and the demo data set) in one table. The two front-ends are
 * made from it: synchronous functions on a SQLite file (on-file.ts) and an admin session on either
 * store (session.ts), so that each function is written once and has both.
 */
import type { StoreFlow } from '../store';
import { demoData } from './demo';
import { OPERATOR } from './operator';

export const OPERATORS = { ...OPERATOR, createDemoData: demoData };

export type Operators = typeof OPERATORS;
/** What the flow of an operator function gives. */
export type FlowResult<F> = F extends (...args: never[]) => StoreFlow<infer T> ? T : never;

type MakeFlow = (...args: unknown[]) => StoreFlow<unknown>;

/** Each operator function wrapped by `wrap`, by name (each front-end gives the table its type). */
export function wrapOperators(wrap: (make: MakeFlow) => unknown): Record<keyof Operators, unknown> {
  return Object.fromEntries(Object.entries(OPERATORS).map(([name, make]) => [name, wrap(make as MakeFlow)])) as Record<
    keyof Operators,
    unknown
  >;
}
