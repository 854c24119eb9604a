/** `export`: transactions or refuelings of the whole local history as CSV. */
import { existsSync } from 'node:fs';
import { UsageError } from '../../../src-node/cli';
import { CSV_DIALECT_NAMES, type CsvDialectName } from '../../../src-shared/csv-dialect';
import { defineCommand } from '../command';
import { writeNew } from '../files';
import { integerArg } from '../values';

/** The options that narrow what is exported, and what each applies to. */
const FILTERS = {
  car: ['refuelings'],
  account: ['transactions'],
  category: ['transactions'],
  text: ['transactions'],
  from: ['transactions'],
  to: ['transactions'],
} as const;

function dialectArg(text: string): CsvDialectName {
  const found = CSV_DIALECT_NAMES.find((d) => d === text);
  if (!found) throw new UsageError(`--dialect is one of ${CSV_DIALECT_NAMES.join(', ')}, not ${JSON.stringify(text.slice(0, 40))}.`);
  return found;
}

/** `--dialect`, for every command that writes a CSV. */
export const DIALECT_OPTION = {
  type: 'string',
  value: '<plain|excel-cs|excel-en>',
  description: 'how the file is written (default: plain)',
  read: dialectArg,
} as const;

export const exportCsv = defineCommand({
  name: 'export',
  summary:
    'Writes transactions (whole local history; --account, --category, --text, --from and --to narrow them) or refuelings (all cars, or --car) to a UTF-8 CSV file with a header row, in a dialect: plain (the default: commas, decimal points, ISO dates, no BOM), excel-cs (semicolons, decimal commas, Czech dates, a BOM) or excel-en (commas, points, dates with a space, a BOM). --force overwrites an existing file.',
  positionals: [{ value: 'transactions|refuelings', description: 'what to export (transactions or refuelings)' }],
  // The filters are read after the check that they apply, so that "--car x" for transactions says that first.
  options: {
    out: { type: 'string', value: '<file>', description: 'the CSV file to write', required: true },
    force: { type: 'boolean', description: 'overwrite the file if it exists' },
    dialect: DIALECT_OPTION,
    car: { type: 'string', value: '<id>', description: "refuelings: only this car's" },
    account: { type: 'string', value: '<id>', description: "transactions: only this account's" },
    category: { type: 'string', value: '<id>', description: 'transactions: only in this category' },
    text: { type: 'string', value: '<t>', description: 'transactions: only those that hold this text' },
    from: { type: 'string', value: '<date>', description: 'transactions: from this day on' },
    to: { type: 'string', value: '<date>', description: 'transactions: up to this day' },
  },
  async run(ctx) {
    const [what] = ctx.positionals;
    const o = ctx.options;
    if (!o.force && existsSync(o.out)) throw new UsageError(`${o.out} exists; add --force to overwrite it.`);
    if (what !== 'transactions' && what !== 'refuelings') {
      throw new UsageError(`Export transactions or refuelings, not ${JSON.stringify(what.slice(0, 40))}.`);
    }
    for (const [name, appliesTo] of Object.entries(FILTERS)) {
      if (!(appliesTo as readonly string[]).includes(what) && o[name as keyof typeof FILTERS] !== undefined) {
        throw new UsageError(`--${name} does not apply to ${what}.`);
      }
    }
    const id = (name: 'car' | 'account' | 'category') => (o[name] === undefined ? undefined : integerArg(o[name], `--${name}`));
    const file =
      what === 'transactions'
        ? await ctx.core.exportTransactionsCsv({
            accountId: id('account'),
            categoryId: id('category'),
            text: o.text,
            from: o.from,
            to: o.to,
            dialect: o.dialect,
          })
        : await ctx.core.exportRefuelingsCsv({ carId: id('car'), dialect: o.dialect });
    writeNew(o.out, Buffer.from(file.content, 'utf8'), o.force);
    ctx.out({ file: o.out, rows: file.rows }, `${file.rows} ${what} written to ${o.out}.`);
  },
});
