/**
 * Each instance's ear on the database: one connection that LISTENs on the channel `bookkeeping`, on which
 * every change that any instance, admin command or psql session makes is announced when it commits:
 *
 * - `data`: something changed (drops the answers an instance keeps);
 * - `credentials`: users or client keys changed (drops the credential lookups too);
 * - `rows`: stored transactions were changed behind the service's back (drops the kept rows too);
 * - `lock <until ms> <login>`: a login was locked by the shared throttle.
 *
 * Notifications sent while an instance is not listening are lost, so an instance trusts nothing it
 * keeps while the connection is down: it reports itself unhealthy, and once it listens again (it
 * reconnects by itself, backing off to 5 s) everything kept is dropped before it is trusted again.
 */
import type pg from 'pg';
import { connect } from './connect';

export const CHANNEL = 'bookkeeping';

export type Announcement =
  | { kind: 'data' }
  | { kind: 'credentials' }
  | { kind: 'rows' }
  | { kind: 'lock'; login: string; until: number };

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

export class Listener {
  private client: pg.Client | undefined;
  private healthyNow = false;
  private closed = false;
  private retryMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly events: ListenerEvents,
  ) {}

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
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.events.lost(reason);
      this.scheduleReconnect();
    };
    client.on('error', (e) => drop(e.message));
    client.on('end', () => drop('the connection ended'));
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL) return;
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
    this.retryMs = FIRST_RETRY_MS;
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
    await this.client?.end().catch(() => undefined);
  }
}
