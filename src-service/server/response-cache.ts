/**
 * Answers to repeated identical read requests. A client syncing asks for the same lists again and again;
 * as long as nothing in the data file has changed, the same request gets the same bytes, so the answer is
 * kept and the XML parse, the password check, the queries and the XML writing are skipped.
 *
 * - The key is an HMAC (under a key that lives only in this process) of everything that shapes the
 *   request: binding, operation in the path, SOAPAction, content type and the body's bytes or the query
 *   string. The credentials are part of it, so a different password is a different key; no request text
 *   is kept. An answer is kept encoded, ready to write.
 * - Every entry belongs to one data generation (see Store.generation): any commit to the data file, by
 *   this service or by another process such as the admin command line, drops every entry. A changed
 *   password, a disabled client key, a new transaction: all are commits.
 * - Entries live no longer than a password verification would (`ttlMs`), and a login that the throttle
 *   refuses is refused here too, so the cache never extends what the credentials allow.
 * - Only operations whose answer is a function of the stored data are cached: the writes are not, nor is
 *   CategoryTree, whose favourites depend on the clock (the last 90 days).
 * - While fewer than a tenth of the lookups find an answer (writes in every turn empty the cache before
 *   answers are asked again), only one answer in 16 is kept: enough to notice when keeping pays again.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Answer } from './answer';

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Most bytes of answers kept in total. */
  maxBytes: number;
}

export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = { ttlMs: 60_000, maxEntries: 2_000, maxBytes: 32 * 1024 * 1024 };

interface Entry {
  login: string;
  answer: Answer;
  expires: number;
}

/** Lookups over which the share of hits is judged (older ones count half, then a quarter...). */
const HIT_WINDOW = 512;
/** Below this share of hits, answers are mostly not kept: the data changes faster than they are asked again. */
const HITS_WORTH_KEEPING = 0.1;
/** While not worth it, one answer in this many is still kept, so that a quieter time is noticed. */
const KEEP_ONE_IN = 16;

export class ResponseCache {
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, Entry>();
  private generation = -1;
  private bytes = 0;
  private lookups = 0;
  private hits = 0;
  private unkept = 0;

  constructor(
    private readonly options: ResponseCacheOptions = DEFAULT_RESPONSE_CACHE,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key of a request, from the pieces that decide how it parses. */
  key(parts: readonly (string | Buffer | undefined)[]): string {
    const hmac = createHmac('sha256', this.secret);
    for (const part of parts) hmac.update(part ?? '\u0000').update('\u0001');
    return hmac.digest('base64');
  }

  /** The cached answer when it was made in this data generation and has not expired. */
  get(key: string, generation: number): Entry | undefined {
    this.sync(generation);
    if (++this.lookups > HIT_WINDOW) {
      this.lookups /= 2;
      this.hits /= 2;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.drop(key, entry);
      return undefined;
    }
    this.hits += 1;
    return entry;
  }

  /**
   * Whether keeping answers pays: with writes in every turn (every commit empties the cache) hardly
   * any answer is asked again before it is dropped, and keeping each one anyway cost more than it saved
   * (answers of 15 KB held for milliseconds, then garbage in the old generation).
   */
  private worthKeeping(): boolean {
    if (this.lookups < HIT_WINDOW / 8 || this.hits >= this.lookups * HITS_WORTH_KEEPING) return true;
    this.unkept = (this.unkept + 1) % KEEP_ONE_IN;
    return this.unkept === 0;
  }

  set(key: string, generation: number, login: string, answer: Answer): void {
    // An answer computed before the latest change seen is not worth keeping.
    if (generation < this.generation) return;
    if (!this.worthKeeping()) return;
    this.sync(generation);
    if (answer.payload.length > this.options.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { login, answer, expires: this.now() + this.options.ttlMs });
    this.bytes += answer.payload.length;
    // Maps iterate in insertion order: the first entries are the oldest.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.drop(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private sync(generation: number): void {
    if (generation === this.generation) return;
    this.entries.clear();
    this.bytes = 0;
    this.generation = generation;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.answer.payload.length;
  }
}
