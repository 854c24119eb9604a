/**
 * Checking the three credentials of a call: a registered, enabled client key, a login and its password.
 * Every mismatch gives the same CredentialsRefused ("Invalid credentials"), after the same work (an unknown login or
 * a wrong key still costs a full password verification), so a caller cannot tell which part was wrong.
 * Verifications take their turn in VerificationSlots, by the address the call comes from; a crowd there is
 * ServiceBusy (try again), never a verdict.
 */
import type { Credentials } from '../../src-shared/catalog';
import { CredentialsRefused, ServiceBusy } from '../errors';
import { awaited, run, type Flow } from '../store/flow';
import { CLIENT_KEY_MAX, LOGIN_MAX, loginKey, type UserRow } from '../store/rows';
import type { ServiceStore } from '../store/seam';
import { LoginQueues, type LoginGuard, type ThrottleOptions } from './login-throttle';
import { DEFAULT_HASH_PARAMS, unmatchableHash, verifyPassword, type HashParams } from './password';
import { DEFAULT_CACHE_OPTIONS, VerificationCache, type VerificationCacheOptions } from './verification-cache';
import {
  DEFAULT_VERIFICATION_SLOTS,
  RENEWAL,
  VERIFICATIONS_BUSY,
  VerificationSlots,
  type VerificationSlotOptions,
} from './verification-slots';

export interface AuthOptions {
  throttle?: Partial<ThrottleOptions>;
  cache?: Partial<VerificationCacheOptions>;
  /** How many verifications run at once, and wait per address and in all (verification-slots.ts). */
  verifications?: Partial<VerificationSlotOptions>;
  /** Told when a login gets locked (for the log); never given a password. */
  onLock?: (login: string, failures: number, ms: number) => void;
  /** The scrypt cost of the users' hashes, spent on unknown logins too (default: the default cost). */
  hashParams?: HashParams;
  /** The clock and the wait of the throttle; tests replace them. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Lookups {
  generation: number;
  users: Map<string, UserRow | null>;
  clients: Map<string, boolean>;
}
const LOOKUPS_MAX = 10_000;
/** A verification is renewed in the background once less than this share of its time is left. */
const REFRESH_SHARE = 0.25;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const refused = () => new CredentialsRefused();

export class Authenticator {
  readonly throttle: LoginGuard;
  /** This process's verifications, one login at a time (on PostgreSQL, the throttle's row orders them across instances). */
  private readonly queues: LoginQueues;
  private readonly cache: VerificationCache;
  /** Whose verification runs next. */
  private readonly slots: VerificationSlots;
  private readonly unknownUserHash: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private seen: Lookups = { generation: -1, users: new Map(), clients: new Map() };
  private readonly refreshing = new Set<string>();
  private refreshQueue: Promise<void> = Promise.resolve();

  constructor(
    /**
     * Where users and client keys are looked up, a number that changes when they may have (they change
     * only through the admin command line), and the login throttle (shared by all instances on PostgreSQL).
     */
    private readonly store: Pick<ServiceStore, 'credentials' | 'outsideGeneration' | 'loginGuard'>,
    options: AuthOptions = {},
  ) {
    this.throttle = store.loginGuard(options.throttle ?? {}, options.now ?? Date.now, options.onLock ?? (() => {}));
    this.queues = new LoginQueues(this.throttle.options.maxQueued);
    this.sleep = options.sleep ?? realSleep;
    this.cache = new VerificationCache({ ...DEFAULT_CACHE_OPTIONS, ...options.cache }, options.now ?? Date.now);
    this.slots = new VerificationSlots({ ...DEFAULT_VERIFICATION_SLOTS, ...options.verifications });
    this.unknownUserHash = unmatchableHash(options.hashParams ?? DEFAULT_HASH_PARAMS);
  }

  /** One verification against a hash nobody's password matches: libuv's pool and scrypt's memory made ready. */
  async warmUp(): Promise<void> {
    await verifyPassword('warm-up', this.unknownUserHash);
  }

  /**
   * The user the credentials identify; throws CredentialsRefused ("Invalid credentials") otherwise, or ServiceBusy
   * when the verifications are crowded. `from` is the address the call comes from (client-address.ts).
   */
  async authenticate(credentials: Credentials, from: string): Promise<UserRow> {
    const login = loginKey(credentials.login);
    // No stored login or client key is longer, so such a call cannot succeed; refusing it before any
    // lookup keeps strings of any length out of the throttle's and the lookups' maps (a memory bound).
    if (login.length > LOGIN_MAX || credentials.clientKey.length > CLIENT_KEY_MAX) throw refused();
    const locked = this.throttle.isLocked(login);
    if (locked === true || (locked !== false && (await locked))) throw refused();
    // At once on SQLite (nothing to wait for): no promise unless a lookup must go to PostgreSQL.
    const recently = run(this.verifiedRecently(credentials));
    const fast = recently instanceof Promise ? await recently : recently;
    if (fast) return fast;
    // Refused before the throttle counts it when its address has too many waiting already.
    if (!this.slots.admits(from)) throw new ServiceBusy(VERIFICATIONS_BUSY);
    const outcome = await this.queues.serialize(login, async () => {
      if (await this.throttle.isLocked(login)) return undefined;
      // Another call of this login may have verified the same password while this one waited.
      const cached = await run(this.verifiedRecently(credentials));
      if (cached) return cached;
      const attempt = await this.throttle.attempt(login);
      if (attempt === 'locked') return undefined;
      if (attempt === 'busy') throw new ServiceBusy();
      let failed = false;
      try {
        if (attempt.delayMs > 0) await this.sleep(attempt.delayMs);
        const user = await this.store.credentials.byLogin(credentials.login);
        const clientOk = await this.store.credentials.isClientEnabled(credentials.clientKey);
        const passwordOk = await this.slots.run(from, () =>
          verifyPassword(credentials.password, user?.password_hash ?? this.unknownUserHash),
        );
        if (!user || !clientOk || !passwordOk) {
          failed = true;
          return undefined;
        }
        this.cache.add(this.cache.key(user.id, user.password_hash, credentials.password));
        return user;
      } finally {
        await attempt.end(failed);
      }
    });
    // Too many calls of this login already waiting their turn here: no verdict on these credentials.
    if (!outcome) throw new ServiceBusy();
    if (!outcome.value) throw refused();
    return outcome.value;
  }

  /** The user when these exact credentials were verified lately and nothing about them has changed since. */
  private *verifiedRecently(credentials: Credentials): Flow<UserRow | undefined> {
    const seen = this.lookups();
    const login = loginKey(credentials.login);
    let user = seen.users.get(login);
    if (user === undefined) {
      user = (yield* awaited(this.store.credentials.byLogin(credentials.login))) ?? null;
      if (this.seen === seen) seen.users.set(login, user);
    }
    if (!user) return undefined;
    const key = this.cache.key(user.id, user.password_hash, credentials.password);
    const left = this.cache.remainingMs(key);
    if (left === 0) return undefined;
    if (left < this.cache.ttlMs * REFRESH_SHARE) this.refresh(key, user, credentials.password);
    let clientOk = seen.clients.get(credentials.clientKey);
    if (clientOk === undefined) {
      clientOk = yield* awaited(this.store.credentials.isClientEnabled(credentials.clientKey));
      if (this.seen === seen) seen.clients.set(credentials.clientKey, clientOk);
    }
    return clientOk ? user : undefined;
  }

  /**
   * Verifies credentials whose verification is about to run out again, in the background, so that a
   * client calling all the time never waits for scrypt once verified: without it, every active login
   * paid a full verification on the request path once a minute, all of them in the same second after a
   * start. One at a time, on libuv's pool, so that the event loop keeps a core, and before any caller's
   * verification waiting for a slot. A password changed meanwhile has a new stored hash and so another
   * key: this can only ever extend what scrypt confirmed.
   */
  private refresh(key: string, user: UserRow, password: string): void {
    if (this.refreshing.has(key) || this.refreshing.size >= LOOKUPS_MAX) return;
    this.refreshing.add(key);
    this.refreshQueue = this.refreshQueue
      .then(() => this.slots.run(RENEWAL, () => verifyPassword(password, user.password_hash)))
      .then(
        (ok) => {
          if (ok) this.cache.add(key);
        },
        () => undefined,
      )
      .finally(() => this.refreshing.delete(key));
  }

  /** Settles once the renewals begun so far have ended (tests, diagnostics). */
  renewalsDone(): Promise<void> {
    return this.refreshQueue;
  }

  /**
   * Users and client keys as looked up since the last commit of another process. No operation changes
   * them; a new password or a disabled key comes from the admin command line, whose commit empties
   * them: the fast path asks the database again only when something may have changed.
   */
  private lookups(): Lookups {
    const generation = this.store.outsideGeneration();
    const seen = this.seen;
    if (seen.generation !== generation || seen.users.size + seen.clients.size > LOOKUPS_MAX) {
      this.seen = { generation, users: new Map(), clients: new Map() };
    }
    return this.seen;
  }
}
