export * as v from './rules';
export { ValidationError, parse, passes, fieldRules, fieldSchema, isCalendarDate, type Schema, type Infer, type FieldRules } from './rules';
