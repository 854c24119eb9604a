/** `add-client`: registers a client application key. */
import { randomBytes } from 'node:crypto';
import { addClient as register } from '../../index';
import { dataOption, defineCommand } from '../command';

export const addClient = defineCommand({
  name: 'add-client',
  summary: 'Register a client application key (a random one is made and printed when --key is left out).',
  options: {
    data: dataOption,
    key: { type: 'string', value: '<key>', description: 'the key' },
    label: { type: 'string', value: '<text>', description: 'a note on who uses it' },
  },
  run(o) {
    const key = o.key ?? randomBytes(18).toString('base64url');
    register(o.data, key, o.label ?? '');
    console.log(o.key !== undefined ? 'Client key registered.' : `Client key registered: ${key}`);
  },
});
