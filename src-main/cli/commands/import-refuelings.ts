/** `import-refuelings`: refuelings from a CSV file, checked row by row, queued in one go. */
import { UsageError } from '../../../src-node/cli';
import { defineCommand } from '../command';
import { readUtf8 } from '../files';
import * as fmt from '../format';
import { currencyArg, integerArg, MAX_IMPORT_FILE_BYTES } from '../values';

export const importRefuelings = defineCommand({
  name: 'import-refuelings',
  summary:
    "Imports refuelings from a UTF-8 CSV with a header row (columns found by their English or Czech names), queued as new refuelings; rows with problems and duplicates are listed and skipped. --currency is for rows without one (default: the car's last); --dry-run only shows what would be imported.",
  options: {
    car: { type: 'string', value: '<carId>', description: 'the car the refuelings are of', required: true, read: integerArg },
    file: { type: 'string', value: '<csv>', description: 'the CSV file', required: true },
    currency: {
      type: 'string',
      value: '<CZK|203>',
      description: "the currency of rows without one, as its code (CZK) or number (203) (default: the car's last)",
      read: currencyArg,
    },
    'dry-run': { type: 'boolean', description: 'only show what would be imported' },
  },
  async run(ctx) {
    const { car: carId, file, 'dry-run': dryRun } = ctx.options;
    const content = readUtf8(file, MAX_IMPORT_FILE_BYTES, 'an import');
    const currency = ctx.options.currency ?? (await ctx.core.listCars()).find((c) => c.carId === carId)?.lastCurrency ?? undefined;
    if (currency === undefined) throw new UsageError('--currency is required (the car has no earlier refueling to take it from).');
    const input = { carId, content, currency };
    const preview = await ctx.core.previewRefuelingImport(input);
    if (dryRun) {
      ctx.out({ preview, result: null }, `${fmt.importPreviewText(preview)}\nDry run: nothing was queued.`);
      return;
    }
    const result = await ctx.core.importRefuelings(input);
    ctx.out(
      { preview, result },
      `${fmt.importPreviewText(preview)}\n${result.queued} refueling(s) queued, ${result.skipped} row(s) skipped. Run "sync" to send them.`,
    );
  },
});
