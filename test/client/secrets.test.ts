/**
 * Secret stores: nothing in plain text, nothing persisted that need not be. The Electron safeStorage
 * cipher is replaced by a stand-in (Electron cannot run here); everything around it is real.
 */
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EncryptedSecretStore,
  MemorySecretStore,
  PromptSecretStore,
  SealedKeyRefusedError,
  SecretUnavailableError,
  DEFAULT_ARGON2,
  seal,
  unseal,
  type SecretPersistence,
  type StringCipher,
} from '../../src-main/core/secrets';

function memoryPersistence(): SecretPersistence & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, read: (k) => data.get(k) ?? null, write: (k, v) => (v === null ? data.delete(k) : data.set(k, v)) };
}

/** A cheap Argon2id for the tests; the default is 64 MiB and 10 passes. */
const FAST = { memoryKiB: 64, iterations: 1 };

describe('the command line secret store', () => {
  it('takes the password from the environment or a prompt, once, and never stores it', async () => {
    const persistence = memoryPersistence();
    const asked: string[] = [];
    const store = new PromptSecretStore({ persistence, env: {}, prompt: async (q) => (asked.push(q), 'typed'), argon2: FAST });
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
    const first = new PromptSecretStore({
      persistence,
      env: { BOOKKEEPING_PASSWORD: PASSWORD },
      clientKey: 'the-client-key',
      argon2: FAST,
    });
    await first.set('clientKey', 'the-client-key');
    const stored = [...persistence.data.values()].join('');
    expect(stored).not.toContain('the-client-key');
    expect(stored).not.toContain(PASSWORD);
    const next = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: PASSWORD } });
    expect(await next.has('clientKey')).toBe(true);
    expect(await next.get('clientKey')).toBe('the-client-key');
    const wrong = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'not-it' } });
    await expect(wrong.get('clientKey')).rejects.toBeInstanceOf(SealedKeyRefusedError);
    // The app's wording unless the command line asks for its own (give the key again).
    await expect(wrong.get('clientKey')).rejects.toMatchObject({ code: 'sealedKeyRefused', kind: 'auth', params: { again: 'password' } });
    const given = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'not-it', BOOKKEEPING_CLIENT_KEY: 'from-env' } });
    expect(await given.get('clientKey')).toBe('from-env');
    await next.delete('clientKey');
    expect(persistence.data.size).toBe(0);
  });

  it('seals with Argon2id and authenticated encryption: a changed byte does not open; costs out of bounds never open', async () => {
    const sealed = await seal('secret', 'pw', FAST);
    expect(JSON.parse(sealed)).toMatchObject({ v: 2, kdf: 'argon2id', m: 64, t: 1 });
    expect(await unseal(sealed, 'pw')).toEqual({ plain: 'secret', outdated: false });
    expect(await unseal(sealed, 'other')).toBeNull();
    const parsed = JSON.parse(sealed);
    parsed.data = Buffer.from(Buffer.from(parsed.data, 'base64').map((b: number, i: number) => (i === 0 ? b ^ 1 : b))).toString('base64');
    expect(await unseal(JSON.stringify(parsed), 'pw')).toBeNull();
    expect(await unseal(JSON.stringify({ ...JSON.parse(sealed), m: 8 * 1024 * 1024 }), 'pw')).toBeNull();
    expect(await unseal('not json', 'pw')).toBeNull();
  });

  it('the default cost is at least 64 MiB and 10 passes (about 0.5 s a guess on the test machine; see the note in the module)', async () => {
    expect(DEFAULT_ARGON2).toEqual({ memoryKiB: 64 * 1024, iterations: 10 });
    expect(JSON.parse(await seal('secret', 'pw'))).toMatchObject({ v: 2, kdf: 'argon2id', m: 65536, t: 10 });
  });

  it('a key sealed by an earlier version (scrypt) still opens, and is sealed again with Argon2id', async () => {
    const persistence = memoryPersistence();
    // The version 1 format, as earlier versions wrote it.
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const key = scryptSync('pw-1', salt, 32, { N: 1024, r: 8, p: 1 });
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update('old-client-key', 'utf8'), cipher.final()]);
    const v1 = {
      v: 1,
      n: 1024,
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    persistence.write('sealed:clientKey', JSON.stringify(v1));
    const store = new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'pw-1' }, argon2: FAST });
    expect(await store.get('clientKey')).toBe('old-client-key');
    const resealed = JSON.parse(persistence.read('sealed:clientKey')!);
    expect(resealed).toMatchObject({ v: 2, kdf: 'argon2id' });
    expect(await unseal(JSON.stringify(resealed), 'pw-1')).toEqual({ plain: 'old-client-key', outdated: false });
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
    await expect(without.set('password', 'x')).rejects.toMatchObject({ code: 'keychainCannotStore', kind: 'not-connected' });
    persistence.write('os:clientKey', Buffer.from('garbage').toString('base64'));
    await expect(store.get('clientKey')).rejects.toThrow(/could not be decrypted/);
    await expect(store.get('clientKey')).rejects.toMatchObject({ code: 'credentialsUndecryptable' });
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
