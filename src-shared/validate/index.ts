export * as v from './rules';
export { ValidationError, parse, passes, fieldRules, isCalendarDate, type Schema, type Infer, type FieldRules } from './rules';
