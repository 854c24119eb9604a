/** `fuel-stats`: what the Fuel statistics screen shows, for one car. */
import { defineCommand } from '../command';
import * as fmt from '../format';
import { integerArg } from '../values';

export const fuelStats = defineCommand({
  name: 'fuel-stats',
  summary:
    "A car's fuel statistics from the whole local history: consumption between full fills (partial ones carried on), cost per 100 km, price per litre, and per month. Readings that cannot be right are flagged and left out of the distance and consumption unless --count-flagged.",
  positionals: [{ value: '<carId>', description: 'the car id', read: integerArg }],
  options: {
    from: { type: 'string', value: '<date>', description: 'from this day on' },
    to: { type: 'string', value: '<date>', description: 'up to this day' },
    'count-flagged': { type: 'boolean', description: 'count the readings flagged as doubtful too' },
  },
  async run(ctx) {
    const stats = await ctx.core.getFuelStats({
      carId: ctx.positionals[0],
      from: ctx.options.from,
      to: ctx.options.to,
      includeFlagged: ctx.options['count-flagged'] ?? false,
    });
    ctx.out(stats, fmt.fuelStatsText(stats));
  },
});
