/** `passwd`: sets a user's password; never from the command line. */
import { setPassword } from '../../index';
import { dataOption, defineCommand, loginOption, PASSWORD_NOTE } from '../command';
import { readNewPassword } from '../password';

export const passwd = defineCommand({
  name: 'passwd',
  summary: "Set a user's password.",
  options: { data: dataOption, login: loginOption },
  notes: PASSWORD_NOTE,
  async run(o) {
    const password = await readNewPassword();
    setPassword(o.data, o.login, password);
    console.log(`Password of ${o.login} changed.`);
  },
});
