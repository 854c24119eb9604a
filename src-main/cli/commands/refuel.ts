/** `refuel`: queues a refueling. */
import { UsageError } from '../../../src-node/cli';
import { defineCommand, written } from '../command';
import { nowMinute } from '../values';
import { REFUELING_OPTIONS as R, requiredOption } from './refueling-options';

export const refuel = defineCommand({
  name: 'refuel',
  summary: "Queues a refueling (currency defaults to the car's last one, rate to 1).",
  options: {
    car: requiredOption(R.car),
    liter: requiredOption(R.liter),
    price: requiredOption(R.price),
    tachometer: requiredOption(R.tachometer),
    currency: { ...R.currency, description: `${R.currency.description} (default: the car's last)` },
    rate: { ...R.rate, description: `${R.rate.description} (default 1)` },
    date: { ...R.date, description: `${R.date.description} (default now)` },
    description: { ...R.description, description: `${R.description.description} (default none)` },
  },
  async run(ctx) {
    const o = ctx.options;
    const currency = o.currency ?? (await ctx.core.listCars()).find((c) => c.carId === o.car)?.lastCurrency ?? undefined;
    if (currency === undefined) throw new UsageError('--currency is required (the car has no earlier refueling to take it from).');
    const result = await ctx.core.addRefueling({
      carId: o.car,
      liter: o.liter,
      price: o.price,
      tachometer: o.tachometer,
      currency,
      rate: o.rate ?? '1',
      dateOfPurchase: o.date ?? nowMinute(),
      description: o.description ?? '',
    });
    written(ctx, result, 'Refueling queued');
  },
});
