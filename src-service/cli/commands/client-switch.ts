/** `disable-client` and `enable-client`: a client key refused from now on, or accepted again. */
import { setClientEnabled } from '../../index';
import { clientKeyOptions, requiredClientKey } from '../client-key';
import { dataOption, defineCommand } from '../command';

function clientSwitch(name: string, enabled: boolean, summary: string) {
  return defineCommand({
    name,
    summary,
    options: { data: dataOption, ...clientKeyOptions },
    run(o) {
      setClientEnabled(o.data, requiredClientKey(o), enabled);
      console.log(`Client key ${enabled ? 'enabled' : 'disabled'}.`);
    },
  });
}

export const disableClient = clientSwitch('disable-client', false, 'Refuse a client key (BOOKKEEPING_CLIENT_KEY or --key-file) from now on, also in a running service.');
export const enableClient = clientSwitch('enable-client', true, 'Accept a disabled client key (BOOKKEEPING_CLIENT_KEY or --key-file) again.');
