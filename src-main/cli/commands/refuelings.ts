/** `refuelings`: a car's refuelings. */
import { defineCommand } from '../command';
import * as fmt from '../format';
import { integerArg } from '../values';

export const refuelings = defineCommand({
  name: 'refuelings',
  summary: "Lists a car's refuelings, newest first.",
  positionals: [{ value: '<carId>', description: 'the car id', read: integerArg }],
  async run(ctx) {
    const list = await ctx.core.listRefuelings({ carId: ctx.positionals[0] });
    ctx.out(list, fmt.refuelingsText(list));
  },
});
