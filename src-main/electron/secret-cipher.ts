/**
 * The operating system's encryption for the stored client key and password, as Electron's safeStorage
 * offers it. On Linux without a keyring safeStorage falls back to a hard-coded key ("basic_text"), which
 * is plain text in disguise: then no cipher is offered and the secrets stay in memory for the session.
 */
import type { StringCipher } from '../core/secrets';

export interface SafeStorageLike extends StringCipher {
  getSelectedStorageBackend?: () => string;
}

export function osCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): StringCipher | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return null;
  return safeStorage;
}
