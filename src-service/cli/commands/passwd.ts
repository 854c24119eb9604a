/** `passwd`: sets a user's password; never from the command line. */
import { withAdmin } from '../../index';
import { defineCommand, loginOption, PASSWORD_NOTE, storeOf, storeOptions } from '../command';
import { readNewPassword } from '../password';

export const passwd = defineCommand({
  name: 'passwd',
  summary: "Set a user's password.",
  options: { ...storeOptions, login: loginOption },
  notes: PASSWORD_NOTE,
  async run(o) {
    const store = storeOf(o);
    const password = await readNewPassword();
    await withAdmin(store, (admin) => admin.setPassword(o.login, password));
    console.log(`Password of ${o.login} changed.`);
  },
});
