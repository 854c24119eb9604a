/** CarFuelList and EditCarFuel. A car is any positive CarId of the user; it needs no registration. */
import type { ParamsOf, ResultOf } from '../../src-shared/catalog';
import { currencyLabel } from '../../src-shared/money';
import { REFUELING } from '../../src-shared/records/refueling';
import { RuleError } from '../errors';
import { amountToMinor, awaited, type Flow, type RefuelingFields } from '../store';
import type { CallContext } from './context';
import { apiCarFuel, HOLDS, rowFromParams, type SentRules } from './records';
import * as rule from './rules';

function carId(value: number): number {
  if (!(value > 0)) throw new RuleError('CarId must be a positive number.');
  return value;
}

/** The last 50 refuelings of one of the caller's cars, newest first; empty for a car never refuelled. */
export function* listRefuelings(ctx: CallContext, p: ParamsOf<'CarFuelList'>): Flow<ResultOf<'CarFuelList'>> {
  return (yield* awaited(ctx.store.refuelings.last(ctx.user.id, carId(p.CarId)))).map(apiCarFuel);
}

/**
 * The service's rule of each field EditCarFuel sends, in the order they are checked (the currency before the
 * price it counts the minor units of); the parameters become the row's columns by the refueling's table.
 */
const REFUELING_RULES = {
  currency: (code: number, param) => rule.currency(code, param),
  rate: (value: number, param) => rule.measurement(value, param, rule.RATE_PLACES),
  carId: (value: number) => carId(value),
  dateOfPurchase: (value: string) => value,
  tachometer: (value: number, param) => rule.nonNegative(value, param),
  liter: (value: number, param) => rule.measurement(value, param, rule.LITER_PLACES),
  price: (value: number, param, p) => {
    if (!Number.isFinite(value)) throw new RuleError(`${param} must be a finite number.`);
    return amountToMinor(rule.nonNegative(value, param), p.Currency as number, param);
  },
  description: (value: string, param) => rule.description(value, param),
} satisfies SentRules<typeof REFUELING.fields>;

function refuelingFields(ctx: CallContext, p: ParamsOf<'EditCarFuel'>): RefuelingFields {
  const fields = rowFromParams(REFUELING, HOLDS.refueling, REFUELING_RULES, p);
  if (fields.currency === ctx.user.currency && fields.rate !== 1) {
    throw new RuleError(`Rate must be 1 for a refueling in your own currency (${currencyLabel(fields.currency)}).`);
  }
  return fields;
}

/**
 * Saves a refueling and returns its id: `Id_CarFuel` 0 creates one on the car; an existing id of the
 * caller's replaces every field of that refueling (it may move to another of the caller's cars).
 */
export function* saveRefueling(ctx: CallContext, p: ParamsOf<'EditCarFuel'>): Flow<number> {
  const { store, user } = ctx;
  if (p.Id_CarFuel < 0) throw new RuleError('Id_CarFuel must be 0 for a new refueling or the Id of one.');
  const fields = refuelingFields(ctx, p);
  if (p.Id_CarFuel === 0) return yield* awaited(store.refuelings.insert(user.id, user.id, fields));
  if (!(yield* awaited(store.refuelings.getFor(p.Id_CarFuel, user.id)))) {
    throw new RuleError(`Id_CarFuel: refueling ${p.Id_CarFuel} does not exist.`);
  }
  yield* awaited(store.refuelings.update(p.Id_CarFuel, fields));
  return p.Id_CarFuel;
}

export function* editRefueling(ctx: CallContext, p: ParamsOf<'EditCarFuel'>): Flow<ResultOf<'EditCarFuel'>> {
  const id = yield* saveRefueling(ctx, p);
  return apiCarFuel((yield* awaited(ctx.store.refuelings.getFor(id, ctx.user.id)))!);
}
