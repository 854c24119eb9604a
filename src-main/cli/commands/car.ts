/** `car add` and `car remove`: the cars whose refuelings this local copy keeps. */
import { defineCommand, defineGroup } from '../command';
import * as fmt from '../format';
import { integerArg } from '../values';

const carId = { value: '<carId>', description: 'the car id', read: integerArg } as const;

export const car = defineGroup('car', 'Names a car (its refuelings are fetched on the next sync) or forgets one.', [
  defineCommand({
    name: 'car add',
    summary: 'Names a car; its refuelings are fetched on the next sync.',
    positionals: [carId, { value: '<name>', description: 'the car name' }],
    async run(ctx) {
      const [id, name] = ctx.positionals;
      const list = await ctx.core.saveCar({ carId: id, name });
      ctx.out(list, fmt.carsText(list));
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
