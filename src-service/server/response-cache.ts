/**
 * Answers to repeated identical read requests. A client syncing asks for the same lists again and again;
 * as long as nothing they show has changed, the same request gets the same bytes, so the answer is kept
 * and the XML parse, the password check, the queries and the XML writing are skipped.
 *
 * - The key is a SHA-256 of a salt that lives only in this process and everything that shapes the
 *   request: binding, operation in the path, SOAPAction, content type and the body's bytes or the query
 *   string. The credentials are part of it, so a different password is a different key; no request text
 *   is kept. (An HMAC object made for every request cost twice the hash: the key is only ever compared
 *   with keys this process made, never shown, so the salted hash serves as well.) An answer is kept
 *   encoded, ready to write.
 * - Every answer names what it shows (its dependencies, see answer-dependencies.ts: a user's set of
 *   accounts, an account's row, an account's transactions, a car's refuelings, a user's templates), and
 *   a write this service commits drops exactly the answers that show something it touched
 *   (`invalidate`), once its group is committed; the others stay.
 * - Users, passwords, client keys, permissions and templates change only through other processes (the
 *   admin command line); a commit by another process is seen as a new outside generation (see
 *   ServingStore.outsideGeneration) and drops every answer.
 * - An answer dropped by a write leaves the request behind, as it was read (without its password) and the
 *   user it was verified for, so that it is answered again without reading and verifying it anew: with
 *   the same checks as a hit (no commit of another process since, the throttle does not refuse the
 *   login), which are the checks a verified password gets within its time.
 * - Entries live no longer than a password verification would (`ttlMs`), and a login that the throttle
 *   refuses is refused here too, so the cache never extends what the credentials allow. An answer is
 *   given for three quarters of that time, a request answered anew without verifying it for a quarter:
 *   afterwards the request goes the whole way again, and its verification, when due, is renewed in the
 *   background while the old one still counts (a client whose calls skip the verification for a minute
 *   would meet it expired, and wait for scrypt).
 * - Only operations whose answer is a function of the stored data are cached: the writes are not, nor is
 *   CategoryTree, whose favourites depend on the clock (the last 90 days).
 * - While fewer than a tenth of the lookups find an answer and most answers kept are dropped unused
 *   (answers are dropped faster than they are asked again), only one answer in 16 is kept: enough to
 *   notice when keeping pays again. Many misses alone (a cold start, the first round of a sync) are no
 *   reason: until kept answers are seen going unused, every answer is kept.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Answer } from './answer';

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Most bytes of answers kept in total. */
  maxBytes: number;
}

export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = { ttlMs: 60_000, maxEntries: 2_000, maxBytes: 32 * 1024 * 1024 };

/** A request seen before: its answer, while nothing it shows has changed, and the request as read. */
export interface Entry<R> {
  login: string;
  /** Undefined once a write has changed what it showed. */
  answer: Answer | undefined;
  /** The request as read (without its password) and whom it was verified for. */
  request: R;
  /** When the request was last read and verified the whole way. */
  verifiedAt: number;
  /** What the answer shows: a write touching any of these drops it. */
  dependsOn: readonly string[];
  /** Whether the answer has been given from the cache at least once. */
  used: boolean;
  /**
   * Where answers carry a stamp (PostgreSQL, see ServiceStore.answerStamp): the one read before the
   * answer's data; the answer is given only while the database's stamp is still this one.
   */
  stamp: string | undefined;
}

/** The shares of `ttlMs` after the verification that an answer is given, and that a request is answered anew without verifying it. */
const ANSWER_SHARE = 0.75;
const REQUEST_SHARE = 0.25;

/** Counts since start, for tests and diagnostics. */
export interface ResponseCacheStats {
  lookups: number;
  hits: number;
  /** Requests found without their answer (a write dropped it): answered anew without being read and verified again. */
  known: number;
  /** Answers dropped because a write of this service touched what they show. */
  invalidated: number;
  /** Answers found whose stamp the database no longer has (a change made anywhere): answered anew, not counted as hits. */
  outdated: number;
}

/** Lookups over which the share of hits is judged, and drops over which the share of unused ones (older ones count half, then a quarter...). */
const HIT_WINDOW = 512;
/** Below this share of hits, and with this share of answers dropped unused, answers are mostly not kept. */
const UNUSED_NOT_WORTH_IT = 0.9;
/** Below this share of hits, answers are mostly not kept: the data changes faster than they are asked again. */
const HITS_WORTH_KEEPING = 0.1;
/** While not worth it, one answer in this many is still kept, so that a quieter time is noticed. */
const KEEP_ONE_IN = 16;

/** The salt's bytes, at the start of every key's input. */
const SALT_BYTES = 32;
/** Bodies up to this size are hashed in the scratch buffer; larger ones (rare: a request is at most 1 MiB) in one made for them. */
const SCRATCH_BYTES = 16 * 1024;

export class ResponseCache<R = unknown> {
  /** The salt, followed by the input of the key being made. */
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  private readonly entries = new Map<string, Entry<R>>();
  /** The keys of the entries that depend on each thing. */
  private readonly dependents = new Map<string, Set<string>>();
  private generation = -1;
  private bytes = 0;
  private recentLookups = 0;
  private recentHits = 0;
  private recentDrops = 0;
  private recentUnusedDrops = 0;
  /** Answers kept now, and how many of them have not been used yet. */
  private answers = 0;
  private unused = 0;
  private unkept = 0;
  private readonly counts: ResponseCacheStats = { lookups: 0, hits: 0, known: 0, invalidated: 0, outdated: 0 };

  constructor(
    private readonly options: ResponseCacheOptions = DEFAULT_RESPONSE_CACHE,
    private readonly now: () => number = Date.now,
  ) {
    randomBytes(SALT_BYTES).copy(this.scratch);
  }

  /** The key of a request, from the pieces that decide how it parses (the last one its body). */
  key(parts: readonly (string | Buffer | undefined)[]): string {
    return this.keyOf(
      parts
        .slice(0, -1)
        .map((part) => (part ?? '\u0000') + '\u0001')
        .join(''),
      parts[parts.length - 1],
    );
  }

  /** The key of a request whose other parts are `head` (see RequestHeads) and whose body is `body`. */
  keyOf(head: string, body: string | Buffer | undefined): string {
    const rest = body ?? '\u0000';
    const scratch = this.scratch;
    const size = SALT_BYTES + Buffer.byteLength(head) + (typeof rest === 'string' ? Buffer.byteLength(rest) : rest.length);
    if (size > SCRATCH_BYTES) {
      return hash('sha256', Buffer.concat([scratch.subarray(0, SALT_BYTES), Buffer.from(head), Buffer.from(rest)]), 'base64');
    }
    const at = SALT_BYTES + scratch.write(head, SALT_BYTES, 'utf8');
    if (typeof rest === 'string') scratch.write(rest, at, 'utf8');
    else rest.copy(scratch, at);
    return hash('sha256', scratch.subarray(0, size), 'base64');
  }

  /**
   * The entry of a request seen in this outside generation and still usable: with its answer when
   * nothing the answer shows was written since (a hit), else with the request as it was read.
   */
  get(key: string, generation: number): Entry<R> | undefined {
    this.sync(generation);
    this.counts.lookups += 1;
    if (++this.recentLookups > HIT_WINDOW) {
      this.recentLookups /= 2;
      this.recentHits /= 2;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.verifiedAt;
    if (age >= this.options.ttlMs * (entry.answer === undefined ? REQUEST_SHARE : ANSWER_SHARE)) {
      this.drop(key, entry);
      return undefined;
    }
    if (entry.answer === undefined) {
      this.counts.known += 1;
      return entry;
    }
    this.recentHits += 1;
    this.counts.hits += 1;
    if (!entry.used) {
      entry.used = true;
      this.unused -= 1;
    }
    return entry;
  }

  /**
   * Whether keeping answers pays: when writes drop answers before they are asked again, keeping each
   * one anyway costs more than it saves (answers of 15 KB held for milliseconds, then garbage in the old
   * generation).
   */
  private worthKeeping(): boolean {
    if (this.recentLookups < HIT_WINDOW / 8 || this.recentHits >= this.recentLookups * HITS_WORTH_KEEPING) return true;
    if (this.recentDrops < HIT_WINDOW / 8 || this.recentUnusedDrops < this.recentDrops * UNUSED_NOT_WORTH_IT) return true;
    this.unkept = (this.unkept + 1) % KEEP_ONE_IN;
    return this.unkept === 0;
  }

  /**
   * Keeps `answer` for `key`. `generation` is the outside generation the answer was computed in, and it
   * must have been computed from data that no write of this service has changed since without an
   * `invalidate` of what it touched (the service computes and keeps an answer in one synchronous step).
   */
  set(
    key: string,
    generation: number,
    login: string,
    answer: Answer,
    dependsOn: readonly string[],
    request: R,
    stamp: string | undefined = undefined,
  ): void {
    // An answer computed before the latest change seen is not worth keeping.
    if (generation < this.generation) return;
    if (!this.worthKeeping()) return;
    this.sync(generation);
    if (answer.payload.length > this.options.maxBytes / 4) return;
    const old = this.entries.get(key);
    // A request answered again without being verified again keeps the time of its verification.
    const verifiedAt = old !== undefined && old.answer === undefined ? old.verifiedAt : this.now();
    if (old) this.drop(key, old);
    this.entries.set(key, { login, answer, request, verifiedAt, dependsOn, used: false, stamp });
    this.answers += 1;
    this.unused += 1;
    for (const thing of dependsOn) {
      const keys = this.dependents.get(thing);
      if (keys) keys.add(key);
      else this.dependents.set(thing, new Set([key]));
    }
    this.bytes += answer.payload.length;
    // Maps iterate in insertion order: the first entries are the oldest.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.drop(k, e);
    }
  }

  /** Drops every answer that shows any of `things` (a write of this service has changed them); their requests stay. */
  invalidate(things: Iterable<string>): void {
    for (const thing of things) {
      const keys = this.dependents.get(thing);
      if (!keys) continue;
      for (const key of keys) {
        const entry = this.entries.get(key);
        if (entry?.answer !== undefined) {
          this.dropAnswer(key, entry);
          this.counts.invalidated += 1;
        }
      }
    }
  }

  /** The answer of `key`, found by `get`, turned out outdated (its stamp is not the database's any more): dropped, its request kept. */
  outdated(key: string, entry: Entry<R>): void {
    if (entry.answer === undefined || this.entries.get(key) !== entry) return;
    this.dropAnswer(key, entry);
    this.counts.hits -= 1;
    this.counts.outdated += 1;
    this.recentHits = Math.max(0, this.recentHits - 1);
  }

  get size(): number {
    return this.entries.size;
  }

  get stats(): Readonly<ResponseCacheStats> {
    return { ...this.counts };
  }

  private sync(generation: number): void {
    if (generation === this.generation) return;
    this.dropped(this.answers, this.unused);
    this.entries.clear();
    this.dependents.clear();
    this.bytes = 0;
    this.answers = 0;
    this.unused = 0;
    this.generation = generation;
  }

  /** Counts `count` entries dropped, `unused` of them never used. */
  private dropped(count: number, unused: number): void {
    this.recentDrops += count;
    this.recentUnusedDrops += unused;
    while (this.recentDrops > HIT_WINDOW) {
      this.recentDrops /= 2;
      this.recentUnusedDrops /= 2;
    }
  }

  private drop(key: string, entry: Entry<R>): void {
    this.dropAnswer(key, entry);
    this.entries.delete(key);
  }

  /** The entry without its answer (nor the dependencies that came with it). */
  private dropAnswer(key: string, entry: Entry<R>): void {
    if (entry.answer === undefined) return;
    this.bytes -= entry.answer.payload.length;
    entry.answer = undefined;
    this.answers -= 1;
    if (!entry.used) this.unused -= 1;
    this.dropped(1, entry.used ? 0 : 1);
    for (const thing of entry.dependsOn) {
      const keys = this.dependents.get(thing);
      if (keys === undefined) continue;
      keys.delete(key);
      if (keys.size === 0) this.dependents.delete(thing);
    }
    entry.dependsOn = [];
  }
}
