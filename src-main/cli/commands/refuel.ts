/** `refuel`: queues a refueling. */
import { UsageError } from '../../../src-node/cli';
import { defineCommand, written } from '../command';
import { nowMinute } from '../values';
import { newRefueling, newRefuelingOptions, refuelingFieldsGiven } from './refueling-options';

export const refuel = defineCommand({
  name: 'refuel',
  summary: "Queues a refueling (currency defaults to the car's last one; a field that has a default may be left out).",
  // Besides the fallbacks of the refueling's table, the command fills in the date and the currency.
  options: newRefuelingOptions({ dateOfPurchase: 'now', currency: "the car's last" }),
  async run(ctx) {
    const given = refuelingFieldsGiven(ctx.options);
    const car = (await ctx.core.listCars()).find((c) => c.carId === given.carId);
    const currency = given.currency ?? car?.lastCurrency ?? undefined;
    if (currency === undefined) throw new UsageError('--currency is required (the car has no earlier refueling to take it from).');
    const result = await ctx.core.addRefueling(newRefueling({ ...given, currency, dateOfPurchase: given.dateOfPurchase ?? nowMinute() }));
    written(ctx, result, 'Refueling queued');
  },
});
