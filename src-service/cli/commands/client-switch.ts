/** `disable-client` and `enable-client`: a client key refused from now on, or accepted again. */
import { withAdmin } from '../../index';
import { clientKeyOptions, requiredClientKey } from '../client-key';
import { defineCommand, storeOf, storeOptions } from '../command';

function clientSwitch(name: string, enabled: boolean, summary: string) {
  return defineCommand({
    name,
    summary,
    options: { ...storeOptions, ...clientKeyOptions },
    async run(o) {
      const key = requiredClientKey(o);
      await withAdmin(storeOf(o), (admin) => admin.setClientEnabled(key, enabled));
      console.log(`Client key ${enabled ? 'enabled' : 'disabled'}.`);
    },
  });
}

export const disableClient = clientSwitch(
  'disable-client',
  false,
  'Refuse a client key (BOOKKEEPING_CLIENT_KEY or --key-file) from now on, also in a running service.',
);
export const enableClient = clientSwitch(
  'enable-client',
  true,
  'Accept a disabled client key (BOOKKEEPING_CLIENT_KEY or --key-file) again.',
);
