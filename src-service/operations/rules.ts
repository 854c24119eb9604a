/**
 * The rules of service-decisions.md that several operations (and the admin commands) share. Each check
 * returns the value to store or throws a RuleError whose message names the parameter and the rule.
 */
import { decimalFromNumber, isKnownCurrency } from '../../src-shared/money';
import { REFUELING } from '../../src-shared/records/refueling';
import * as fieldRule from '../../src-shared/records/rules';
import { fieldRules } from '../../src-shared/validate';
import { hasForbiddenXmlChar, isWallDateTime } from '../../src-shared/wire';
import { RuleError } from '../errors';
import { PERMISSION, awaited, type AccountRow, type DataAccess, type Flow } from '../store';

/** A limit of the records' field tables (src-shared/records): the service keeps what the app's forms let one enter. */
function tableLimit(limit: number | undefined, what: string): number {
  if (limit === undefined) throw new Error(`The records' field tables give no ${what}.`);
  return limit;
}

export const NAME_MAX = tableLimit(fieldRules(fieldRule.name()).maxLength, 'longest name');
/** Digits a number the service keeps may have: every decimal of up to 15 survives a double exactly. */
export const SIGNIFICANT_MAX = 15;
export const DESCRIPTION_MAX = tableLimit(fieldRules(fieldRule.description()).maxLength, 'longest description');
/** Litres to the millilitre, an exchange rate to six decimals. */
export const LITER_PLACES = tableLimit(fieldRules(REFUELING.fields.liter.input).maxScale, "litres' decimal places");
export const RATE_PLACES = tableLimit(fieldRules(REFUELING.fields.rate.input).maxScale, "a rate's decimal places");
/** Deepest category nesting: keeps the tree's XML well inside every reader's depth limit. */
export const CATEGORY_DEPTH_MAX = 10;

export const ACCOUNT_TYPES: Readonly<Record<number, string>> = {
  1: 'cash',
  2: 'bank account',
  3: 'payment card',
  4: 'savings',
  5: 'loan',
  6: 'other',
};
export const TRANSACTION_TYPES: Readonly<Record<number, string>> = { 1: 'income', 2: 'expense', 3: 'transfer' };

const describeCodes = (codes: Readonly<Record<number, string>>) =>
  Object.entries(codes)
    .map(([code, label]) => `${code} ${label}`)
    .join(', ');

/**
 * Text that the answers can carry. The codec never hands over such characters, but the admin command
 * line can; stored, one would turn every later answer holding it into a Server fault.
 */
function xmlText(value: string, param: string): string {
  if (hasForbiddenXmlChar(value)) throw new RuleError(`${param} holds a control character that XML cannot carry.`);
  return value;
}

/** A name of 1 to 100 characters once surrounding white space is dropped; returns it trimmed. */
export function name(value: string, param: string): string {
  const trimmed = xmlText(value, param).trim();
  const length = [...trimmed].length;
  if (length < 1 || length > NAME_MAX) throw new RuleError(`${param} must be 1 to ${NAME_MAX} characters.`);
  return trimmed;
}

/** Free text, possibly empty. */
export function description(value: string, param: string): string {
  if ([...value].length > DESCRIPTION_MAX) throw new RuleError(`${param} must be at most ${DESCRIPTION_MAX} characters.`);
  return xmlText(value, param);
}

export function currency(code: number, param: string): number {
  if (!isKnownCurrency(code)) throw new RuleError(`${param} ${code} is not an ISO 4217 currency code this service knows.`);
  return code;
}

export function accountType(code: number, param: string): number {
  if (!Object.hasOwn(ACCOUNT_TYPES, code)) {
    throw new RuleError(`${param} ${code} is not an account type (${describeCodes(ACCOUNT_TYPES)}).`);
  }
  return code;
}

export function transactionType(code: number, param: string): number {
  if (!Object.hasOwn(TRANSACTION_TYPES, code)) {
    throw new RuleError(`${param} ${code} is not a transaction type (${describeCodes(TRANSACTION_TYPES)}).`);
  }
  return code;
}

/** A wall-clock dateTime as the codec hands them over (the operations get theirs checked by the codec). */
export function wallDateTime(value: string, param: string): string {
  if (!isWallDateTime(value)) throw new RuleError(`${param} must be a date and time such as 2026-11-21T14:05:00.`);
  return value;
}

export function nonNegative(value: number, param: string): number {
  if (!(value >= 0)) throw new RuleError(`${param} must not be negative.`);
  return value;
}

function finitePositive(value: number, param: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RuleError(`${param} must be a number greater than zero.`);
  return value;
}

/**
 * A measurement that is not money (litres, an exchange rate): greater than zero, read as the decimal its
 * shortest text shows, with at most `places` decimals and 15 digits. A value such as 38.769999999999996
 * is the residue of float arithmetic in the caller, not a quantity anyone measured; stored, it would come
 * back in every list.
 */
export function measurement(value: number, param: string, places: number): number {
  finitePositive(value, param);
  const { units, scale } = decimalFromNumber(value);
  if (scale > places) throw new RuleError(`${param} ${String(value)} has more than ${places} decimal places.`);
  if (units.toString().length > SIGNIFICANT_MAX) {
    throw new RuleError(`${param} is larger than the service keeps (${SIGNIFICANT_MAX} significant digits).`);
  }
  return value;
}

/**
 * An account the user holds any permission on. Someone else's account and one that does not exist get
 * the same answer: a caller learns nothing about accounts that are not theirs.
 */
export function* visibleAccount(store: DataAccess, userId: number, accountId: number, param: string): Flow<AccountRow> {
  const account = yield* awaited(store.accounts.getFor(accountId, userId));
  if (!account) throw new RuleError(`${param}: account ${accountId} does not exist.`);
  return account;
}

/** An account the user may write to (permission 2 or 3). */
export function* writableAccount(store: DataAccess, userId: number, accountId: number, param: string): Flow<AccountRow> {
  const account = yield* visibleAccount(store, userId, accountId, param);
  if (account.permission < PERMISSION.write) throw new RuleError(`${param}: account ${accountId} is read-only for you.`);
  return account;
}

/** A category id of the caller, or 0 for none (stored as null). */
export function* optionalCategory(store: DataAccess, userId: number, categoryId: number, param: string): Flow<number | null> {
  if (categoryId === 0) return null;
  if (!(yield* awaited(store.categories.getFor(categoryId, userId)))) {
    throw new RuleError(`${param}: category ${categoryId} does not exist.`);
  }
  return categoryId;
}
