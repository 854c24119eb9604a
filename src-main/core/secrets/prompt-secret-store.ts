/**
 * The command line's secrets. The password is never stored: it comes from BOOKKEEPING_PASSWORD or a
 * prompt, each run. The client key comes from --key-file, BOOKKEEPING_CLIENT_KEY, the prompt, or the
 * local copy, where it is kept sealed (AES-256-GCM) under a key derived from the password, so that a later
 * run that knows the password needs no key given again, and the data file never holds the key in plain text.
 *
 * The key is derived with Argon2id at 64 MiB and 10 passes (about 0.5 s per guess here, and memory-hard,
 * so that a copied data file resists guessing offline). Keys sealed by earlier versions (scrypt, about 15
 * guesses a second) still open, and are sealed again with Argon2id when they do.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { argon2id } from 'hash-wasm';
import { SealedKeyRefusedError, SecretUnavailableError, type SecretName, type SecretPersistence, type SecretStore } from './secret-store';

export const PASSWORD_ENV = 'BOOKKEEPING_PASSWORD';
export const CLIENT_KEY_ENV = 'BOOKKEEPING_CLIENT_KEY';

export interface PromptSecretStoreOptions {
  persistence: SecretPersistence;
  env?: Record<string, string | undefined>;
  /** A client key given on the command line (--key). */
  clientKey?: string;
  /** Asks the user; null when no one can answer (no terminal). */
  prompt?: (question: string) => Promise<string | null>;
  /** Argon2id cost; lower only in tests. */
  argon2?: Argon2Cost;
  /** What the user gives again when the sealed key does not open: the key (the command line) or the password (the app, the default). */
  refusedAgain?: 'key' | 'password';
}

export interface Argon2Cost {
  /** Memory in KiB. */
  memoryKiB: number;
  iterations: number;
}

/** At least 64 MiB and 0.5 s per guess (measured on the 2-core test machine: about 56 ms a pass). */
export const DEFAULT_ARGON2: Argon2Cost = { memoryKiB: 64 * 1024, iterations: 10 };

interface SealedCommon {
  salt: string;
  iv: string;
  tag: string;
  data: string;
}
/** Version 1: scrypt (read only, sealed again as version 2). */
type SealedV1 = SealedCommon & { v: 1; n: number };
type SealedV2 = SealedCommon & { v: 2; kdf: 'argon2id'; m: number; t: number };

const SEALED_KEY = 'sealed:clientKey';

function scryptKey(password: string, salt: Buffer, n: number): Buffer {
  return scryptSync(password.normalize('NFC'), salt, 32, { N: n, r: 8, p: 1, maxmem: 256 * n * 8 + 1024 * 1024 });
}

async function argon2Key(password: string, salt: Buffer, cost: Argon2Cost): Promise<Buffer> {
  const key = await argon2id({
    password: password.normalize('NFC'),
    salt,
    parallelism: 1,
    iterations: cost.iterations,
    memorySize: cost.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
  return Buffer.from(key);
}

export async function seal(plain: string, password: string, cost: Argon2Cost = DEFAULT_ARGON2): Promise<string> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await argon2Key(password, salt, cost), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const sealed: SealedV2 = {
    v: 2,
    kdf: 'argon2id',
    m: cost.memoryKiB,
    t: cost.iterations,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return JSON.stringify(sealed);
}

/**
 * The sealed text opened with the password ({ plain, outdated: sealed with an older derivation }), or
 * null when the password does not open it. Costs out of bounds (a damaged or hostile file) never open.
 */
export async function unseal(text: string, password: string): Promise<{ plain: string; outdated: boolean } | null> {
  try {
    const s = JSON.parse(text) as SealedV1 | SealedV2;
    let key: Buffer;
    if (s.v === 1) {
      if (!Number.isInteger(s.n) || s.n < 2 || s.n > 2 ** 20) return null;
      key = scryptKey(password, Buffer.from(s.salt, 'base64'), s.n);
    } else if (s.v === 2 && s.kdf === 'argon2id') {
      if (!Number.isInteger(s.m) || s.m < 8 || s.m > 1024 * 1024 || !Number.isInteger(s.t) || s.t < 1 || s.t > 100) return null;
      key = await argon2Key(password, Buffer.from(s.salt, 'base64'), { memoryKiB: s.m, iterations: s.t });
    } else return null;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(s.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(s.data, 'base64')), decipher.final()]).toString('utf8');
    return { plain, outdated: s.v !== 2 };
  } catch {
    return null;
  }
}

export class PromptSecretStore implements SecretStore {
  private readonly memory = new Map<SecretName, string>();
  /** The password given for this sync or connection (unlock): seals and opens the client key, not remembered as the password. */
  private unlocking: string | null = null;
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
      const password = this.unlocking ?? (await this.get('password'));
      if (password === null) return null;
      const opened = await unseal(sealed, password);
      if (opened !== null) {
        // Sealed by an earlier version with a weaker derivation: sealed again now that it is open.
        if (opened.outdated) this.options.persistence.write(SEALED_KEY, await seal(opened.plain, password, this.options.argon2));
        return opened.plain;
      }
      throw new SealedKeyRefusedError('sealedKeyRefused', { again: this.options.refusedAgain ?? 'password' });
    }
    return (await this.options.prompt?.('Client key: ')) || null;
  }

  async set(name: SecretName, value: string): Promise<void> {
    this.memory.set(name, value);
    this.declined.delete(name);
    if (name === 'clientKey') {
      const password = this.unlocking ?? (await this.get('password'));
      if (password === null) throw new SecretUnavailableError('keyNeedsPassword');
      this.options.persistence.write(SEALED_KEY, await seal(value, password, this.options.argon2));
    }
  }

  async delete(name: SecretName): Promise<void> {
    this.memory.delete(name);
    if (name === 'clientKey') this.options.persistence.write(SEALED_KEY, null);
  }

  async unlock(password: string): Promise<void> {
    if (password !== this.unlocking) {
      this.unlocking = password;
      // A key opened with another password is not assumed to open with this one.
      if (this.options.persistence.read(SEALED_KEY) !== null && this.options.clientKey === undefined) this.memory.delete('clientKey');
    }
  }
}

/**
 * The secrets where no keychain exists (the browser shell, a desktop without one): the client key sealed
 * under the password with Argon2id in the local copy, the password held in memory for the session when
 * the user lets the app remember it, else asked at each sync; after a restart the password is asked once
 * and opens the key again. Nothing comes from the environment or a terminal.
 */
export function sealedSecrets(persistence: SecretPersistence, argon2?: Argon2Cost): SecretStore {
  return new PromptSecretStore({ persistence, env: {}, ...(argon2 ? { argon2 } : {}) });
}
