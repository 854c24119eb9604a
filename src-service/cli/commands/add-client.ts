/** `add-client`: registers a client application key. */
import { randomBytes } from 'node:crypto';
import { addClient as register } from '../../index';
import { clientKeyOptions, givenClientKey } from '../client-key';
import { dataOption, defineCommand } from '../command';

export const addClient = defineCommand({
  name: 'add-client',
  summary: 'Register a client application key: the one in BOOKKEEPING_CLIENT_KEY or --key-file, else a random one, printed once.',
  options: {
    data: dataOption,
    ...clientKeyOptions,
    label: { type: 'string', value: '<text>', description: 'a note on who uses it' },
  },
  run(o) {
    const given = givenClientKey(o);
    const key = given ?? randomBytes(18).toString('base64url');
    register(o.data, key, o.label ?? '');
    console.log(given !== null ? 'Client key registered.' : `Client key registered: ${key}`);
  },
});
