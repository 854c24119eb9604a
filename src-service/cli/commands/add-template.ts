/** `add-template`: a transaction template for a user. */
import { withAdmin } from '../../index';
import { defineCommand, loginOption, storeOf, storeOptions } from '../command';
import { amountOption, codeOption, idOption, wholeNumber } from '../values';

const TRANSACTION_TYPES = { income: 1, expense: 2, transfer: 3 };

export const addTemplate = defineCommand({
  name: 'add-template',
  summary: 'Add a transaction template for a user.',
  options: {
    ...storeOptions,
    login: loginOption,
    account: { type: 'string', value: '<id>', description: 'an account the user may write to', required: true, read: idOption },
    type: {
      type: 'string',
      value: '<income|expense|transfer>',
      description: 'or 1, 2, 3',
      required: true,
      read: codeOption(TRANSACTION_TYPES),
    },
    amount: { type: 'string', value: '<decimal>', description: 'signed, e.g. -14500 or 52300.50', required: true, read: amountOption },
    description: { type: 'string', value: '<text>', description: 'default empty' },
    category: {
      type: 'string',
      value: '<id>',
      description: "one of the user's categories (default none)",
      read: wholeNumber(0, Number.MAX_SAFE_INTEGER),
    },
    ord: {
      type: 'string',
      value: '<n>',
      description: 'ordering number (default 0)',
      read: wholeNumber(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    },
  },
  async run(o) {
    const id = await withAdmin(storeOf(o), (admin) =>
      admin.addTemplate(o.login, {
        accountId: o.account,
        type: o.type,
        amount: o.amount,
        description: o.description ?? '',
        categoryId: o.category ?? 0,
        ord: o.ord ?? 0,
      }),
    );
    console.log(`Template ${id} added.`);
  },
});
