/** `add-user`: creates a user; the password never comes from the command line. */
import { addUser as create } from '../../index';
import { dataOption, defineCommand, loginOption, PASSWORD_NOTE } from '../command';
import { readNewPassword } from '../password';
import { currencyOption } from '../values';

export const addUser = defineCommand({
  name: 'add-user',
  summary: 'Create a user.',
  options: {
    data: dataOption,
    login: loginOption,
    currency: { type: 'string', value: '<code>', description: "the user's own currency, ISO 4217 (default CZK)", read: currencyOption },
  },
  notes: PASSWORD_NOTE,
  async run(o) {
    const password = await readNewPassword();
    const id = create(o.data, o.login, password, o.currency === undefined ? {} : { currency: o.currency });
    console.log(`User ${o.login} created with id ${id}.`);
  },
});
