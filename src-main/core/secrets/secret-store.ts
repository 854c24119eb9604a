/**
 * Where the client key and the password live. The core only sees this interface; the Electron shell
 * plugs in the operating system's keychain (`safeStorage`) through EncryptedSecretStore, the command
 * line the environment or a prompt. Implementations never write a secret in plain text and never log one.
 */
import { AppError } from '../../../src-shared/app-api';

export type SecretName = 'password' | 'clientKey';
export const SECRET_NAMES: readonly SecretName[] = ['password', 'clientKey'];

export interface SecretStore {
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<void>;
  /**
   * Whether a value is stored, without asking anyone for it (a prompting store must not prompt here).
   * Optional: without it the core calls get().
   */
  has?(name: SecretName): Promise<boolean>;
  /**
   * The password the user gave for this sync or connection, for a store that seals other secrets under
   * it (the client key, where no keychain exists); it is not thereby remembered. Optional.
   */
  unlock?(password: string): Promise<void>;
}

/**
 * A small key-value place for opaque, already encrypted text, offered by the core (the settings
 * table of the local copy) so that a secret store can keep ciphertext next to the data it protects.
 */
export interface SecretPersistence {
  read(key: string): string | null;
  write(key: string, value: string | null): void;
}

/** What `createAppCore` accepts: a ready store, or a factory that receives the core's persistence. */
export type SecretStoreSource = SecretStore | ((persistence: SecretPersistence) => SecretStore);

type SecretTrouble = 'keychainUnavailable' | 'keychainCannotStore' | 'credentialsUndecryptable' | 'keyNeedsPassword';
/** The credentials cannot be kept or read here (no keychain, undecryptable...): said by its error code. */
export class SecretUnavailableError<C extends SecretTrouble = SecretTrouble> extends AppError<C> {
  override name = 'SecretUnavailableError';
}

/** The password given does not open the sealed client key: a wrong password, as the service would refuse it. */
export class SealedKeyRefusedError extends AppError<'sealedKeyRefused'> {
  override name = 'SealedKeyRefusedError';
}

/** Secrets held only in this process's memory (tests, or an app that asks every time). */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<SecretName, string>();
  constructor(initial: Partial<Record<SecretName, string>> = {}) {
    for (const [k, v] of Object.entries(initial)) if (v !== undefined) this.values.set(k as SecretName, v);
  }
  async get(name: SecretName): Promise<string | null> {
    return this.values.get(name) ?? null;
  }
  async has(name: SecretName): Promise<boolean> {
    return this.values.has(name);
  }
  async set(name: SecretName, value: string): Promise<void> {
    this.values.set(name, value);
  }
  async delete(name: SecretName): Promise<void> {
    this.values.delete(name);
  }
}

/** The operating system's encryption as Electron's safeStorage offers it. */
export interface StringCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * Secrets encrypted with an OS-backed cipher (Electron safeStorage) and kept as base64 ciphertext in
 * the core's persistence. Refuses to store anything when the cipher is not available, rather than
 * falling back to plain text.
 */
export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly cipher: StringCipher,
    private readonly persistence: SecretPersistence,
    private readonly prefix = 'os:',
  ) {}

  async get(name: SecretName): Promise<string | null> {
    const stored = this.persistence.read(this.prefix + name);
    if (stored === null) return null;
    if (!this.cipher.isEncryptionAvailable()) throw new SecretUnavailableError('keychainUnavailable');
    try {
      return this.cipher.decryptString(Buffer.from(stored, 'base64'));
    } catch {
      throw new SecretUnavailableError('credentialsUndecryptable');
    }
  }

  async has(name: SecretName): Promise<boolean> {
    return this.persistence.read(this.prefix + name) !== null;
  }

  async set(name: SecretName, value: string): Promise<void> {
    if (!this.cipher.isEncryptionAvailable()) {
      throw new SecretUnavailableError('keychainCannotStore');
    }
    this.persistence.write(this.prefix + name, this.cipher.encryptString(value).toString('base64'));
  }

  async delete(name: SecretName): Promise<void> {
    this.persistence.write(this.prefix + name, null);
  }
}
