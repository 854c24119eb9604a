/**
 * Each instance's ear on the database: one connection that LISTENs on the channel `bookkeeping`, on which
 * every change made outside the service's instances (an admin command, a psql session) is announced by the
 * tables' triggers when it commits (the instances' own writes are not: what they change is seen through
 * the stamps of kept answers, see serving.ts):
 *
 * - `data`: something changed;
 * - `credentials`: users or client keys changed (drops the credential lookups too);
 * - `rows`: stored transactions were changed behind the service's back (drops the kept rows too);
 * - `lock <until ms> <login>`: a login was locked by the shared throttle.
 *
 * Notifications sent while an instance is not listening are lost, so an instance trusts nothing it
 * keeps while the connection is down: it reports itself unhealthy, and once it listens again (it
 * reconnects by itself, backing off to 5 s) everything kept is dropped before it is trusted again.
 *
 * A connection that breaks without an error (a NAT or firewall that silently drops its packets, a
 * failover that leaves it half open) would never be noticed by a connection that only receives, and the
 * instance would trust what it keeps for good. So the listener proves itself: every second the instance
 * announces `ping <instance> <n>` through its pool (the path every other announcement takes), and a
 * listener that has not heard one of them 2 s after its commit counts as lost, as if its connection had
 * failed (notifications arrive in the order of their commits, so a later one heard vouches for the earlier
 * ones); so does one that has heard none for 10 s, when pings cannot even be sent. Pings change nothing:
 * no one drops anything for them, other instances ignore them. A pool too busy to send a ping within
 * 10 s costs a reconnect and what is kept, no worse.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { connect } from './connect';

export const CHANNEL = 'bookkeeping';

export type Announcement = { kind: 'data' } | { kind: 'credentials' } | { kind: 'rows' } | { kind: 'lock'; login: string; until: number };

export function lockAnnouncement(login: string, until: number): string {
  return `lock ${until} ${login}`;
}

export function parseAnnouncement(payload: string | undefined): Announcement | undefined {
  if (payload === 'data' || payload === 'credentials' || payload === 'rows') return { kind: payload };
  const lock = /^lock (\d{1,16}) (.+)$/s.exec(payload ?? '');
  if (lock) return { kind: 'lock', until: Number(lock[1]), login: lock[2]! };
  return undefined;
}

export interface ListenerEvents {
  /** An announcement arrived. */
  announced(a: Announcement): void;
  /** Listening again (or for the first time): whatever was missed meanwhile must be assumed changed. */
  listening(client: pg.Client): Promise<void>;
  /** The connection is gone (a reconnect follows). */
  lost(reason: string): void;
}

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;
/** How often the instance pings itself through the database. */
const PING_EVERY_MS = 1_000;
/** A ping committed this long ago and not heard: the listener is lost. */
const LATE_AFTER_MS = 2_000;
/** No ping heard for this long (none could be sent, or none arrived): the listener is lost. */
const DEAF_AFTER_MS = 10_000;

/** Sends an announcement through the instance's pool (committed when it resolves). */
export type Announce = (payload: string) => Promise<unknown>;

export class Listener {
  private client: pg.Client | undefined;
  private healthyNow = false;
  private closed = false;
  private retryMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  /** This listener's pings are `ping <id> <n>`; those of other instances are ignored. */
  private readonly pingPrefix = `ping ${randomBytes(6).toString('hex')} `;
  private pingCount = 0;
  /** The last of its pings the listener has heard (or the last sent before it began listening). */
  private heardCount = 0;
  /** When the listener last proved to hear (its own ping arrived, or it began listening). */
  private heardAt = 0;
  /** The pings committed and not heard yet, oldest first. */
  private unheard: { n: number; at: number }[] = [];
  /** The connection a ping is in flight for (no second one while it is; a new connection sends its own). */
  private pingingFor: pg.Client | undefined;
  /** Drops the current connection as lost (set while there is one). */
  private dropCurrent: ((reason: string) => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly events: ListenerEvents,
    private readonly announce: Announce,
  ) {
    this.heartbeat = setInterval(() => this.beat(), PING_EVERY_MS);
    this.heartbeat.unref();
  }

  /** True while the connection listens: announcements arrive, and what is kept can be trusted. */
  get healthy(): boolean {
    return this.healthyNow;
  }

  /** Connects and listens; rejects when the first connection fails (the instance does not start). */
  start(): Promise<void> {
    return this.connectOnce();
  }

  private async connectOnce(): Promise<void> {
    const client = await connect(this.url, { applicationName: 'bookkeeping-listener' });
    this.client = client;
    let gone = false;
    const drop = (reason: string) => {
      if (gone) return;
      gone = true;
      this.healthyNow = false;
      this.client = undefined;
      this.dropCurrent = undefined;
      // Not end(): its goodbye would wait for an answer a dead connection never gives.
      client.connection.stream.destroy();
      if (this.closed) return;
      this.events.lost(reason);
      this.scheduleReconnect();
    };
    client.on('error', (e) => drop(e.message));
    client.on('end', () => drop('the connection ended'));
    this.dropCurrent = drop;
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL) return;
      if (n.payload?.startsWith(this.pingPrefix)) {
        this.heard(Number(n.payload.slice(this.pingPrefix.length)));
        return;
      }
      const a = parseAnnouncement(n.payload);
      if (a) this.events.announced(a);
    });
    try {
      await client.query(`LISTEN ${CHANNEL}`);
      await this.events.listening(client);
    } catch (e) {
      drop((e as Error).message);
      throw e;
    }
    if (gone) return;
    this.healthyNow = true;
    // Pings sent before are not heard on this connection.
    this.heardCount = this.pingCount;
    this.heardAt = Date.now();
    this.unheard = [];
    this.retryMs = FIRST_RETRY_MS;
  }

  private heard(n: number): void {
    if (!(n > this.heardCount)) return;
    this.heardCount = n;
    this.heardAt = Date.now();
    while (this.unheard.length && this.unheard[0]!.n <= n) this.unheard.shift();
  }

  /** Once a second while listening: lost when a ping is late or none is heard, else the next ping (one in flight at most). */
  private beat(): void {
    const client = this.client;
    if (!this.healthyNow || !client) return;
    if (this.deafness()) {
      // Read what has arrived meanwhile first (a busy event loop may not have yet), then judge.
      setImmediate(() => {
        const reason = this.client === client && this.healthyNow ? this.deafness() : undefined;
        if (reason) this.dropCurrent?.(reason);
      });
      return;
    }
    if (this.pingingFor === client) return;
    this.pingingFor = client;
    const n = ++this.pingCount;
    // A failure to send is not the listener's: should it last, it shows as deafness.
    this.announce(`${this.pingPrefix}${n}`)
      .then(
        () => {
          if (this.client === client && n > this.heardCount) this.unheard.push({ n, at: Date.now() });
        },
        () => undefined,
      )
      .finally(() => {
        if (this.pingingFor === client) this.pingingFor = undefined;
      });
  }

  /** Why the listener cannot be trusted to hear, if it cannot. */
  private deafness(): string | undefined {
    const now = Date.now();
    const late = this.unheard[0];
    if (late && now - late.at >= LATE_AFTER_MS) {
      return `its heartbeat, committed ${seconds(now - late.at)} ago, has not arrived (the connection is broken without saying so)`;
    }
    if (now - this.heardAt >= DEAF_AFTER_MS) return `no heartbeat of its own has arrived for ${seconds(now - this.heardAt)}`;
    return undefined;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(LAST_RETRY_MS, this.retryMs * 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connectOnce().catch(() => this.scheduleReconnect());
    }, wait);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.healthyNow = false;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    const client = this.client;
    if (!client) return;
    // A goodbye a silently broken connection never answers does not hold the close up.
    const cut = setTimeout(() => client.connection.stream.destroy(), 1_000);
    await client.end().catch(() => undefined);
    clearTimeout(cut);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
