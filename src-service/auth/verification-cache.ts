/**
 * Recently verified credentials, so that a client calling many operations in a row pays for scrypt once
 * rather than on every call. An entry is a SHA-256 of a salt that lives only in this process, the user
 * id, the stored password hash and the password: no password is kept, and a password change (which
 * writes a new hash with a new salt, from this process or from the admin command line) makes every entry
 * of the old one unreachable at once. (An HMAC object made for every call cost twice the one hash; the
 * entries are only ever compared with what this process makes, never shown.)
 */
import { hash, randomBytes } from 'node:crypto';

export interface VerificationCacheOptions {
  /** How long a verification counts, in ms. */
  ttlMs: number;
  /** Most entries kept; the oldest go first. */
  maxEntries: number;
}

export const DEFAULT_CACHE_OPTIONS: VerificationCacheOptions = { ttlMs: 60_000, maxEntries: 10_000 };

export class VerificationCache {
  private readonly salt = randomBytes(32).toString('base64');
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly options: VerificationCacheOptions = DEFAULT_CACHE_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  key(userId: number, storedHash: string, password: string): string {
    return hash('sha256', `${this.salt}\u0000${userId}\u0000${storedHash}\u0000${password}`, 'base64');
  }

  has(key: string): boolean {
    return this.remainingMs(key) > 0;
  }

  /** How long the entry still counts, in ms; 0 when there is none (or it has expired). */
  remainingMs(key: string): number {
    const expires = this.entries.get(key);
    if (expires === undefined) return 0;
    const left = expires - this.now();
    if (left > 0) return left;
    this.entries.delete(key);
    return 0;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  add(key: string): void {
    this.entries.delete(key);
    this.entries.set(key, this.now() + this.options.ttlMs);
    if (this.entries.size > this.options.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest.
      this.entries.delete(this.entries.keys().next().value!);
    }
  }
}
