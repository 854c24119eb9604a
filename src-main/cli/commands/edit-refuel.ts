/** `edit-refuel`: queues a change of a refueling; what is not given keeps its value. */
import { AppError, type AppApi } from '../../../src-shared/app-api';
import { pick } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { defineCommand, written } from '../command';
import { integerArg } from '../values';
import { REFUELING_OPTIONS, refuelingFieldsGiven } from './refueling-options';

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
    // Every field an edit sends, as the refueling has it, with those given over it (a mark not given stays as it is).
    const input = { ...pick(r, REFUELING.edited), ...refuelingFieldsGiven(ctx.options), id };
    written(ctx, await ctx.core.editRefueling(input), 'Refueling change queued');
  },
});
