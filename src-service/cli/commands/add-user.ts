/** `add-user`: creates a user; the password never comes from the command line. */
import { withAdmin } from '../../index';
import { defineCommand, loginOption, PASSWORD_NOTE, storeOf, storeOptions } from '../command';
import { readNewPassword } from '../password';
import { currencyOption } from '../values';

export const addUser = defineCommand({
  name: 'add-user',
  summary: 'Create a user.',
  options: {
    ...storeOptions,
    login: loginOption,
    currency: { type: 'string', value: '<code>', description: "the user's own currency, ISO 4217 (default CZK)", read: currencyOption },
  },
  notes: PASSWORD_NOTE,
  async run(o) {
    const store = storeOf(o);
    const password = await readNewPassword();
    const id = await withAdmin(store, (admin) =>
      admin.addUser(o.login, password, o.currency === undefined ? {} : { currency: o.currency }),
    );
    console.log(`User ${o.login} created with id ${id}.`);
  },
});
