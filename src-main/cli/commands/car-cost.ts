/**
 * `car-cost`: a car's other costs (kept on this computer only, never queued or sent): the whole cost with
 * the costs listed, and adding, changing, deleting, exporting and importing them. The options of a cost's
 * fields come from its field table (src-shared/records/car-cost.ts).
 */
import { UsageError } from '../../../src-node/cli';
import type { AppApi, CarWholeCost } from '../../../src-shared/app-api';
import { currencyLabel } from '../../../src-shared/money';
import { CAR_COST, type CarCostWrite } from '../../../src-shared/records/car-cost';
import { pick } from '../../../src-shared/records/fields';
import { defineCommand, defineGroup } from '../command';
import { readUtf8, writeNew } from '../files';
import { table } from '../format';
import { currencyArg, integerArg, MAX_IMPORT_FILE_BYTES } from '../values';
import { DIALECT_OPTION } from './export';
import { RecordOptions } from './record-options';

const OPTIONS = new RecordOptions<keyof CarCostWrite>(CAR_COST.fields, CAR_COST.sent);
const LOCAL_ONLY = 'Kept on this computer only: never sent to the service.';
const carId = { value: '<carId>', description: 'the car id', read: integerArg } as const;
const costId = { value: '<id>', description: 'the cost id', read: integerArg } as const;

export function wholeCostText(w: CarWholeCost): string {
  const cur = currencyLabel(w.currency);
  const costs = table(
    ['ID', 'DATE', 'KIND', 'ODOMETER', 'AMOUNT', 'CUR', 'NOTE'],
    w.costs.map((c) => [c.id, c.date, c.kind, c.odometer, c.amount, currencyLabel(c.currency), c.note]),
  );
  const kinds = table(
    ['KIND', 'COUNT', `TOTAL ${cur}`],
    w.byKind.filter((k) => k.count > 0).map((k) => [k.kind, k.count, k.total]),
  );
  const per = (label: string, s: CarWholeCost['perKm']) =>
    s ? `${label}: ${s.total} ${cur} (fuel ${s.fuel}, other ${s.other})` : `${label}: -`;
  return [
    w.costs.length ? costs : 'No other costs.',
    '',
    `${w.from ?? '-'} to ${w.to}: ${w.months} month(s), ${w.distance === null ? 'distance unknown' : `${w.distance} km`}`,
    kinds,
    `Total: ${w.totals.total} ${cur} (fuel ${w.totals.fuel}, other ${w.totals.other})`,
    per('Per km', w.perKm),
    per('Per month', w.perMonth),
    LOCAL_ONLY,
  ].join('\n');
}

/** A cost by its id, as the car's whole cost lists it. */
async function findCost(core: AppApi, id: number) {
  for (const car of await core.listCars()) {
    const c = (await core.getCarWholeCost({ carId: car.carId })).costs.find((x) => x.id === id);
    if (c) return c;
  }
  throw new UsageError(`There is no car cost ${id} of a car in the list.`);
}

export const carCost = defineGroup('car-cost', "A car's other costs (service, tyres, insurance...), kept on this computer only.", [
  defineCommand({
    name: 'car-cost list',
    summary: "Lists a car's other costs and its whole cost (fuel and other costs, per km and per month).",
    positionals: [carId],
    options: {
      from: { type: 'string', value: '<YYYY-MM-DD>', description: 'from this day on (default: the first record)' },
      to: { type: 'string', value: '<YYYY-MM-DD>', description: 'up to this day (default: today)' },
    },
    async run(ctx) {
      const w = await ctx.core.getCarWholeCost({ carId: ctx.positionals[0], from: ctx.options.from, to: ctx.options.to });
      ctx.out(w, wholeCostText(w));
    },
  }),
  defineCommand({
    name: 'car-cost add',
    summary: "Adds a cost of a car (currency defaults to the car's last refueling's).",
    options: OPTIONS.forNew({ currency: "the car's last" }),
    async run(ctx) {
      const given = OPTIONS.given(ctx.options) as Partial<CarCostWrite>;
      const car = (await ctx.core.listCars()).find((c) => c.carId === given.carId);
      const currency = given.currency ?? car?.lastCurrency ?? undefined;
      if (currency === undefined) throw new UsageError('--currency is required (the car has no refueling to take it from).');
      OPTIONS.complete({ ...given, currency });
      const cost = await ctx.core.addCarCost({ ...(given as CarCostWrite), currency });
      ctx.out(cost, `Car cost added (id ${cost.id}). ${LOCAL_ONLY}`);
    },
  }),
  defineCommand({
    name: 'car-cost edit',
    summary: 'Changes a cost; fields not given keep their values.',
    positionals: [costId],
    options: OPTIONS.all(),
    async run(ctx) {
      const [id] = ctx.positionals;
      const cost = await findCost(ctx.core, id);
      const changed = await ctx.core.editCarCost({
        ...pick(cost, CAR_COST.sent),
        ...(OPTIONS.given(ctx.options) as Partial<CarCostWrite>),
        id,
      });
      ctx.out(changed, `Car cost ${id} changed.`);
    },
  }),
  defineCommand({
    name: 'car-cost delete',
    summary: 'Deletes a cost.',
    positionals: [costId],
    async run(ctx) {
      const [id] = ctx.positionals;
      ctx.out(await ctx.core.removeCarCost({ id }), `Car cost ${id} deleted.`);
    },
  }),
  defineCommand({
    name: 'car-cost export',
    summary:
      "Writes the other costs (all cars', or --car's) to a UTF-8 CSV file with a header row, in a dialect as `export` does " +
      '(plain, excel-cs or excel-en). --force overwrites an existing file.',
    options: {
      out: { type: 'string', value: '<file>', description: 'the CSV file to write', required: true },
      force: { type: 'boolean', description: 'overwrite the file if it exists' },
      car: { type: 'string', value: '<carId>', description: "only this car's", read: integerArg },
      dialect: DIALECT_OPTION,
    },
    async run(ctx) {
      const file = await ctx.core.exportCarCostsCsv({ carId: ctx.options.car, dialect: ctx.options.dialect });
      writeNew(ctx.options.out, Buffer.from(file.content, 'utf8'), ctx.options.force ?? false);
      ctx.out({ file: ctx.options.out, rows: file.rows }, `${file.rows} car cost(s) written to ${ctx.options.out}.`);
    },
  }),
  defineCommand({
    name: 'car-cost import',
    summary: "Adds a car's costs from a CSV with a header row (columns found by their English or Czech names): all rows, or none.",
    positionals: [carId, { value: '<file>', description: 'the CSV file' }],
    options: {
      currency: {
        type: 'string',
        value: '<CZK|203>',
        description: 'the currency of rows without one, as its code (CZK) or number (203) (default CZK)',
        read: currencyArg,
      },
    },
    async run(ctx) {
      const [id, file] = ctx.positionals;
      const content = readUtf8(file, MAX_IMPORT_FILE_BYTES, 'an import');
      const result = await ctx.core.importCarCosts({ carId: id, content, currency: ctx.options.currency ?? 203 });
      ctx.out(result, `${result.imported} car cost(s) added. ${LOCAL_ONLY}`);
    },
  }),
]);
