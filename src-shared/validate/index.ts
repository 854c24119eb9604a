export * as v from './schema';
export { ValidationError, type Schema, type Infer } from './schema';
