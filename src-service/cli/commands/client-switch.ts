/** `disable-client` and `enable-client`: a client key refused from now on, or accepted again. */
import { setClientEnabled } from '../../index';
import { dataOption, defineCommand } from '../command';

function clientSwitch(name: string, enabled: boolean, summary: string) {
  return defineCommand({
    name,
    summary,
    options: { data: dataOption, key: { type: 'string', value: '<key>', description: 'the key', required: true } },
    run(o) {
      setClientEnabled(o.data, o.key, enabled);
      console.log(`Client key ${enabled ? 'enabled' : 'disabled'}.`);
    },
  });
}

export const disableClient = clientSwitch('disable-client', false, 'Refuse a client key from now on (also in a running service).');
export const enableClient = clientSwitch('enable-client', true, 'Accept a disabled client key again.');
