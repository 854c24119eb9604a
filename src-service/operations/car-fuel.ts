/** CarFuelList and EditCarFuel. A car is any positive CarId of the user; it needs no registration. */
import type { ParamsOf, ResultOf } from '../../src-shared/catalog';
import { currencyLabel } from '../../src-shared/money';
import { RuleError } from '../errors';
import { amountToMinor, awaited, type Flow, type RefuelingFields } from '../store';
import type { CallContext } from './context';
import { apiCarFuel } from './records';
import * as rule from './rules';

function carId(value: number): number {
  if (!(value > 0)) throw new RuleError('CarId must be a positive number.');
  return value;
}

/** The last 50 refuelings of one of the caller's cars, newest first; empty for a car never refuelled. */
export function* listRefuelings(ctx: CallContext, p: ParamsOf<'CarFuelList'>): Flow<ResultOf<'CarFuelList'>> {
  return (yield* awaited(ctx.store.refuelings.last(ctx.user.id, carId(p.CarId)))).map(apiCarFuel);
}

function refuelingFields(ctx: CallContext, p: ParamsOf<'EditCarFuel'>): RefuelingFields {
  const currency = rule.currency(p.Currency, 'Currency');
  const rate = rule.measurement(p.Rate, 'Rate', rule.RATE_PLACES);
  if (currency === ctx.user.currency && rate !== 1) {
    throw new RuleError(`Rate must be 1 for a refueling in your own currency (${currencyLabel(currency)}).`);
  }
  if (!Number.isFinite(p.Price)) throw new RuleError('Price must be a finite number.');
  return {
    car_id: carId(p.CarId),
    date_of_purchase: p.DateOfPurchase,
    tachometer: rule.nonNegative(p.Tachometer, 'Tachometer'),
    liter: rule.measurement(p.Liter, 'Liter', rule.LITER_PLACES),
    price_minor: amountToMinor(rule.nonNegative(p.Price, 'Price'), currency, 'Price'),
    description: rule.description(p.Description, 'Description'),
    currency,
    rate,
  };
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
