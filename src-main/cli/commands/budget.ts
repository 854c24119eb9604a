/**
 * `budget list|set|clear|copy-last-month`: the budgets kept in this local copy only (never queued or sent).
 * The arguments that give a budget's fields are described from the budget's field table
 * (src-shared/records/budget.ts): its words and its rule's limits.
 */
import type { BudgetView } from '../../../src-shared/app-api';
import { BUDGET } from '../../../src-shared/records/budget';
import type { FieldSpec } from '../../../src-shared/records/fields';
import { fieldRules } from '../../../src-shared/validate';
import { defineCommand, defineGroup, type CommandContext } from '../command';
import * as fmt from '../format';
import { currencyArg, integerArg } from '../values';

type BudgetField = keyof typeof BUDGET.fields;

/** "the month, as YYYY-MM", "the amount to spend, at least 0, at most 4 decimals (and no more than its currency has)". */
function described(key: BudgetField): string {
  const f: FieldSpec = BUDGET.fields[key];
  const rules = fieldRules(f.input!);
  return [
    `the ${f.words ?? key}`,
    ...(rules.nonNegative ? ['at least 0'] : []),
    ...(rules.maxScale === undefined ? [] : [`at most ${rules.maxScale} decimals (and no more than its currency has)`]),
  ].join(', ');
}

const categoryArg = { value: '<categoryId>', description: described('categoryId'), read: integerArg } as const;
const monthArg = { value: '<month>', description: described('month') } as const;
const amountArg = { value: '<amount>', description: described('amount') } as const;

const currencyOption = {
  currency: {
    type: 'string',
    value: '<CZK|203>',
    description: `${described('currency')}, as its code (CZK) or ISO 4217 number (203) (default: that of most accounts)`,
    read: currencyArg,
  },
} as const;

const LOCAL_ONLY = 'Budgets are kept on this computer only: never queued, never sent to the service; backups carry them.';

/** The currency asked for, else the one the core chooses (that of most accounts). */
async function currencyOf(ctx: CommandContext, given: number | undefined): Promise<number> {
  return given ?? (await ctx.core.getBudgetMonth({ month: '2000-01' })).currency;
}

export const budget = defineGroup('budget', `Budgets per category and month, against what was spent. ${LOCAL_ONLY}`, [
  defineCommand({
    name: 'budget list',
    summary: "A month's budgets of every category, or a year's of the budgeted ones, against what was spent (over or under).",
    positionals: [{ value: '<YYYY-MM|YYYY>', description: 'the month, or the year' }],
    options: currencyOption,
    notes: LOCAL_ONLY,
    async run(ctx) {
      const period = ctx.positionals[0];
      const currency = ctx.options.currency;
      const view = /^\d{4}$/.test(period)
        ? await ctx.core.getBudgetYear({ year: Number(period), currency })
        : await ctx.core.getBudgetMonth({ month: period, currency });
      ctx.out(view, fmt.budgetText(view));
    },
  }),
  defineCommand({
    name: 'budget set',
    summary: "Sets a month's budget of a category.",
    positionals: [categoryArg, monthArg, amountArg],
    options: currencyOption,
    notes: LOCAL_ONLY,
    async run(ctx) {
      const [categoryId, month, amount] = ctx.positionals;
      const view: BudgetView = await ctx.core.setBudget({
        categoryId,
        month,
        amount,
        currency: await currencyOf(ctx, ctx.options.currency),
      });
      ctx.out(view, fmt.budgetText(view));
    },
  }),
  defineCommand({
    name: 'budget clear',
    summary: "Takes a month's budget of a category away.",
    positionals: [categoryArg, monthArg],
    options: currencyOption,
    async run(ctx) {
      const [categoryId, month] = ctx.positionals;
      const view = await ctx.core.clearBudget({ categoryId, month, currency: await currencyOf(ctx, ctx.options.currency) });
      ctx.out(view, fmt.budgetText(view));
    },
  }),
  defineCommand({
    name: 'budget copy-last-month',
    summary: "Same as last month: copies the previous month's budgets into the month; those it already has stay as they are.",
    positionals: [monthArg],
    options: currencyOption,
    async run(ctx) {
      const copy = await ctx.core.copyBudgetMonth({ month: ctx.positionals[0], currency: await currencyOf(ctx, ctx.options.currency) });
      const kept = copy.kept > 0 ? `; ${copy.kept} the month already had stayed as they were` : '';
      ctx.out(copy, `Copied ${copy.copied} budget(s) from the month before${kept}.\n\n${fmt.budgetText(copy.view)}`);
    },
  }),
]);
