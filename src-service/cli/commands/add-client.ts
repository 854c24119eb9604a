/** `add-client`: registers a client application key. */
import { randomBytes } from 'node:crypto';
import { withAdmin } from '../../index';
import { clientKeyOptions, givenClientKey } from '../client-key';
import { defineCommand, storeOf, storeOptions } from '../command';

export const addClient = defineCommand({
  name: 'add-client',
  summary: 'Register a client application key: the one in BOOKKEEPING_CLIENT_KEY or --key-file, else a random one, printed once.',
  options: {
    ...storeOptions,
    ...clientKeyOptions,
    label: { type: 'string', value: '<text>', description: 'a note on who uses it' },
  },
  async run(o) {
    const given = givenClientKey(o);
    const key = given ?? randomBytes(18).toString('base64url');
    await withAdmin(storeOf(o), (admin) => admin.addClient(key, o.label ?? ''));
    console.log(given !== null ? 'Client key registered.' : `Client key registered: ${key}`);
  },
});
