export * as v from './rules';
export { ValidationError, parse, fieldRules, fieldSchema, isCalendarDate, type Schema, type Infer, type FieldRules } from './rules';
