/**
 * Secret stores: nothing in plain text, nothing persisted that need not be. The Electron safeStorage
 * cipher is replaced by a stand-in (Electron cannot run here); everything around it is real.
 */
import { describe, expect, it } from 'vitest';
import {
  EncryptedSecretStore,
  MemorySecretStore,
  PromptSecretStore,
  SecretUnavailableError,
  seal,
  unseal,
  type SecretPersistence,
  type StringCipher,
} from '../../src-main/core/secrets';

function memoryPersistence(): SecretPersistence & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, read: (k) => data.get(k) ?? null, write: (k, v) => (v === null ? data.delete(k) : data.set(k, v)) };
}

const FAST = 2 ** 10;

describe('the command line secret store', () => {
  it('takes the password from the environment or a prompt, once, and never stores it', async () => {
    const persistence = memoryPersistence();
    const asked: string[] = [];
    const store = new PromptSecretStore({ persistence, env: {}, prompt: async (q) => (asked.push(q), 'typed'), scryptCost: FAST });
    expect(await store.has('password')).toBe(false);
    expect(await store.get('password')).toBe('typed');
    expect(await store.get('password')).toBe('typed');
    expect(asked).toEqual(['Password: ']);
    await store.set('password', 'other');
    expect(persistence.data.size).toBe(0);
    const fromEnv = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'env-pw' }, prompt: async () => 'never' });
    expect(await fromEnv.has('password')).toBe(true);
    expect(await fromEnv.get('password')).toBe('env-pw');
    // Nobody to answer: null, asked once.
    let tries = 0;
    const silent = new PromptSecretStore({ persistence, env: {}, prompt: async () => (tries++, null) });
    expect(await silent.get('password')).toBeNull();
    expect(await silent.get('password')).toBeNull();
    expect(tries).toBe(1);
  });

  it('keeps the client key sealed under the password, for the next run', async () => {
    // Long and with characters base64 never writes, so that it cannot turn up in a random salt by chance.
    const PASSWORD = 'the-password-#1';
    const persistence = memoryPersistence();
    const first = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: PASSWORD }, clientKey: 'the-client-key', scryptCost: FAST });
    await first.set('clientKey', 'the-client-key');
    const stored = [...persistence.data.values()].join('');
    expect(stored).not.toContain('the-client-key');
    expect(stored).not.toContain(PASSWORD);
    const next = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: PASSWORD } });
    expect(await next.has('clientKey')).toBe(true);
    expect(await next.get('clientKey')).toBe('the-client-key');
    const wrong = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'not-it' } });
    await expect(wrong.get('clientKey')).rejects.toBeInstanceOf(SecretUnavailableError);
    const given = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'not-it', BOOKKEEPING_CLIENT_KEY: 'from-env' } });
    expect(await given.get('clientKey')).toBe('from-env');
    await next.delete('clientKey');
    expect(persistence.data.size).toBe(0);
  });

  it('seals with authenticated encryption: a changed byte does not open', () => {
    const sealed = seal('secret', 'pw', FAST);
    expect(unseal(sealed, 'pw')).toBe('secret');
    const parsed = JSON.parse(sealed);
    parsed.data = Buffer.from(Buffer.from(parsed.data, 'base64').map((b: number, i: number) => (i === 0 ? b ^ 1 : b))).toString('base64');
    expect(unseal(JSON.stringify(parsed), 'pw')).toBeNull();
    expect(unseal('not json', 'pw')).toBeNull();
  });
});

describe('the keychain-backed store', () => {
  const cipher = (available = true): StringCipher => ({
    isEncryptionAvailable: () => available,
    encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b) => {
      const text = b.toString();
      if (!text.startsWith('enc:')) throw new Error('bad');
      return Buffer.from(text.slice(4), 'hex').toString();
    },
  });

  it('stores only ciphertext, and refuses to store anything without the keychain', async () => {
    const persistence = memoryPersistence();
    const store = new EncryptedSecretStore(cipher(), persistence);
    await store.set('password', 'p4ss');
    expect([...persistence.data.values()].join('')).not.toContain('p4ss');
    expect(await store.get('password')).toBe('p4ss');
    expect(await store.has('clientKey')).toBe(false);
    const without = new EncryptedSecretStore(cipher(false), memoryPersistence());
    await expect(without.set('password', 'x')).rejects.toBeInstanceOf(SecretUnavailableError);
    persistence.write('os:clientKey', Buffer.from('garbage').toString('base64'));
    await expect(store.get('clientKey')).rejects.toThrow(/could not be decrypted/);
    await store.delete('password');
    expect(await store.get('password')).toBeNull();
  });

  it('the memory store holds values for the process only', async () => {
    const store = new MemorySecretStore({ password: 'x' });
    expect(await store.get('password')).toBe('x');
    expect(await store.get('clientKey')).toBeNull();
    await store.delete('password');
    expect(await store.has('password')).toBe(false);
  });
});
