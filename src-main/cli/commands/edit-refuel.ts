/** `edit-refuel`: queues a change of a refueling; what is not given keeps its value. */
import { AppError, type AppApi } from '../../../src-shared/app-api';
import { defineCommand, fieldsGiven, written } from '../command';
import { integerArg } from '../values';
import { REFUELING_FIELD_OF, REFUELING_OPTIONS } from './refueling-options';

async function findRefueling(core: AppApi, id: number) {
  for (const car of await core.listCars()) {
    const r = (await core.listRefuelings({ carId: car.carId })).find((x) => x.id === id);
    if (r) return r;
  }
  throw new AppError('refuelingNotInCopy', { id });
}

export const editRefuel = defineCommand({
  name: 'edit-refuel',
  summary: 'Queues a change of a refueling; fields not given keep their values.',
  positionals: [{ value: '<id>', description: 'the refueling id', read: integerArg }],
  options: REFUELING_OPTIONS,
  async run(ctx) {
    const [id] = ctx.positionals;
    const r = await findRefueling(ctx.core, id);
    const { carId, liter, price, tachometer, currency, rate, dateOfPurchase, description } = {
      ...r,
      ...fieldsGiven(ctx.options, REFUELING_FIELD_OF),
    };
    written(
      ctx,
      await ctx.core.editRefueling({ id, carId, liter, price, tachometer, currency, rate, dateOfPurchase, description }),
      'Refueling change queued',
    );
  },
});
