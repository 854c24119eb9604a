/** `car add` and `car remove`: the cars whose refuelings this local copy keeps. */
import { AppError, type CarFetch } from '../../../src-shared/app-api';
import { defineCommand, defineGroup } from '../command';
import * as fmt from '../format';
import { integerArg } from '../values';

const carId = { value: '<carId>', description: 'the car id', read: integerArg } as const;

/** What came of asking the service for a car's refuelings, in a line. */
function fetchText(f: CarFetch): string {
  if (f.problem) return `Its refuelings come with the next sync that goes through: ${AppError.fromData(f.problem).message}`;
  return `${f.refuelings} refuelings of car ${f.carId} fetched from the service.`;
}

export const car = defineGroup('car', 'Names a car (its refuelings are fetched from the service at once) or forgets one.', [
  defineCommand({
    name: 'car add',
    summary:
      'Names a car and fetches its refuelings from the service at once, as the screens do (offline, or when the service ' +
      'cannot be asked, they come with the next sync). --json prints { cars, fetched }.',
    positionals: [carId, { value: '<name>', description: 'the car name' }],
    async run(ctx) {
      const [id, name] = ctx.positionals;
      await ctx.core.saveCar({ carId: id, name });
      const fetched = await ctx.core.fetchCarRefuelings({ carId: id });
      // Listed after the fetch, so that the car's refuelings and last reading count what came.
      const cars = await ctx.core.listCars();
      ctx.out({ cars, fetched }, `${fmt.carsText(cars)}\n${fetchText(fetched)}`);
    },
  }),
  defineCommand({
    name: 'car remove',
    summary: 'Forgets a car and the refuelings this local copy keeps of it (the service keeps them).',
    positionals: [carId],
    async run(ctx) {
      const list = await ctx.core.removeCar({ carId: ctx.positionals[0] });
      ctx.out(list, fmt.carsText(list));
    },
  }),
]);
