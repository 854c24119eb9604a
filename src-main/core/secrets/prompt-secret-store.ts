/**
 * The command line's secrets. The password is never stored: it comes from BOOKKEEPING_PASSWORD or a
 * prompt, each run. The client key comes from --key-file, BOOKKEEPING_CLIENT_KEY, the prompt, or the local copy, where
 * it is kept sealed (AES-256-GCM) under a key derived from the password with scrypt, so that a later
 * run that knows the password needs no key given again, and the data file never holds the key in plain text.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { SecretUnavailableError, type SecretName, type SecretPersistence, type SecretStore } from './secret-store';

export const PASSWORD_ENV = 'BOOKKEEPING_PASSWORD';
export const CLIENT_KEY_ENV = 'BOOKKEEPING_CLIENT_KEY';

export interface PromptSecretStoreOptions {
  persistence: SecretPersistence;
  env?: Record<string, string | undefined>;
  /** A client key given on the command line (--key). */
  clientKey?: string;
  /** Asks the user; null when no one can answer (no terminal). */
  prompt?: (question: string) => Promise<string | null>;
  /** scrypt cost (power of two); lower only in tests. */
  scryptCost?: number;
}

interface Sealed {
  v: 1;
  n: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

const SEALED_KEY = 'sealed:clientKey';

function derive(password: string, salt: Buffer, n: number): Buffer {
  return scryptSync(password.normalize('NFC'), salt, 32, { N: n, r: 8, p: 1, maxmem: 256 * n * 8 + 1024 * 1024 });
}

export function seal(plain: string, password: string, n = 2 ** 15): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(password, salt, n), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const sealed: Sealed = { v: 1, n, salt: salt.toString('base64'), iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  return JSON.stringify(sealed);
}

/** The sealed text opened with the password, or null when the password does not open it. */
export function unseal(text: string, password: string): string | null {
  try {
    const s = JSON.parse(text) as Sealed;
    if (s.v !== 1 || !Number.isInteger(s.n) || s.n < 2 || s.n > 2 ** 20) return null;
    const decipher = createDecipheriv('aes-256-gcm', derive(password, Buffer.from(s.salt, 'base64'), s.n), Buffer.from(s.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(s.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export class PromptSecretStore implements SecretStore {
  private readonly memory = new Map<SecretName, string>();
  /** Secrets asked for and not given: asked once per run. */
  private readonly declined = new Set<SecretName>();
  private readonly env: Record<string, string | undefined>;

  constructor(private readonly options: PromptSecretStoreOptions) {
    this.env = options.env ?? process.env;
    if (options.clientKey !== undefined) this.memory.set('clientKey', options.clientKey);
  }

  async get(name: SecretName): Promise<string | null> {
    const known = this.memory.get(name);
    if (known !== undefined) return known;
    if (this.declined.has(name)) return null;
    const value = name === 'password' ? await this.password() : await this.clientKey();
    if (value !== null) this.memory.set(name, value);
    else this.declined.add(name);
    return value;
  }

  async has(name: SecretName): Promise<boolean> {
    if (this.memory.has(name)) return true;
    if (name === 'password') return Boolean(this.env[PASSWORD_ENV]);
    return Boolean(this.env[CLIENT_KEY_ENV]) || this.options.persistence.read(SEALED_KEY) !== null;
  }

  private async password(): Promise<string | null> {
    const fromEnv = this.env[PASSWORD_ENV];
    if (fromEnv) return fromEnv;
    return (await this.options.prompt?.('Password: ')) || null;
  }

  private async clientKey(): Promise<string | null> {
    const fromEnv = this.env[CLIENT_KEY_ENV];
    if (fromEnv) return fromEnv;
    const sealed = this.options.persistence.read(SEALED_KEY);
    if (sealed !== null) {
      const password = await this.get('password');
      if (password === null) return null;
      const opened = unseal(sealed, password);
      if (opened !== null) return opened;
      throw new SecretUnavailableError('The stored client key does not open with this password; give the key again with --key.');
    }
    return (await this.options.prompt?.('Client key: ')) || null;
  }

  async set(name: SecretName, value: string): Promise<void> {
    this.memory.set(name, value);
    this.declined.delete(name);
    if (name === 'clientKey') {
      const password = await this.get('password');
      if (password === null) throw new SecretUnavailableError('The client key can only be stored together with a password.');
      this.options.persistence.write(SEALED_KEY, seal(value, password, this.options.scryptCost));
    }
  }

  async delete(name: SecretName): Promise<void> {
    this.memory.delete(name);
    if (name === 'clientKey') this.options.persistence.write(SEALED_KEY, null);
  }
}
