/**
 * Password hashes: scrypt with a random 16-byte salt, stored as
 * `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>` so that each hash carries the cost it was made with and
 * the default can rise without invalidating stored ones. Comparison is constant-time.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface HashParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt setting of equal strength to N=2^17,r=8,p=1 with a quarter of the memory (32 MiB). */
export const DEFAULT_HASH_PARAMS: HashParams = { N: 2 ** 15, r: 8, p: 3 };

/** A cheap cost for tests only: it keeps suites fast; never use it for real users. */
export const TEST_HASH_PARAMS: HashParams = { N: 2 ** 10, r: 8, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function scryptOptions({ N, r, p }: HashParams): ScryptOptions {
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

function checkParams({ N, r, p }: HashParams): boolean {
  // Bounds keep a damaged or hostile data file from making one verification cost minutes or gigabytes.
  return N >= 2 && N <= 2 ** 20 && (N & (N - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16;
}

export function hashPassword(password: string, params: HashParams = DEFAULT_HASH_PARAMS): string {
  if (!checkParams(params)) throw new RangeError('Unusable scrypt parameters.');
  const salt = randomBytes(SALT_LENGTH);
  const hash = scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, scryptOptions(params));
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

interface ParsedHash {
  params: HashParams;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const m = FORMAT.exec(stored);
  if (!m) return null;
  const params = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (!checkParams(params)) return null;
  const hash = Buffer.from(m[5]!, 'base64');
  if (hash.length !== KEY_LENGTH) return null;
  return { params, salt: Buffer.from(m[4]!, 'base64'), hash };
}

/**
 * True when the password matches the stored hash. Runs scrypt on libuv's thread pool, so the event loop
 * keeps serving other requests meanwhile. A malformed stored hash never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const used = parsed ?? parseHash(UNMATCHABLE_HASH)!;
  const derived = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), used.salt, KEY_LENGTH, scryptOptions(used.params), (err, key) => (err ? reject(err) : resolve(key))),
  );
  const same = timingSafeEqual(derived, used.hash);
  return parsed !== null && same;
}

/**
 * A well-formed hash that no password matches (its "hash" is not scrypt output): verified against when
 * the login is unknown, so that an unknown login costs what a wrong password costs. Give it the cost the
 * users' hashes have.
 */
export function unmatchableHash({ N, r, p }: HashParams = DEFAULT_HASH_PARAMS): string {
  return `scrypt$${N}$${r}$${p}$${Buffer.alloc(SALT_LENGTH).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
}

const UNMATCHABLE_HASH = unmatchableHash();
