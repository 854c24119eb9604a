/**
 * A listener of the test's own on the channel the service's instances announce their changes on
 * (src-service/store/postgres/listener.ts): it hears every announcement as it is committed, and each
 * instance's heartbeat (`ping <instance> <n>`, one a second while the instance listens).
 *
 * Notifications reach every listener in the order of their commits, so a ping an instance committed after
 * a change is heard by that instance after the change's announcement: once the watch has heard an
 * instance's ping that followed an announcement, the instance has heard the announcement too (give or
 * take the moment its own socket takes; the instances in a test run in the same process as the watch).
 * That is what a test waits for instead of a fixed sleep.
 */
import pg from 'pg';
import { CHANNEL } from '../../src-service/store/postgres/listener';

export interface Heard {
  payload: string;
  /** For a heartbeat: the instance and its count. */
  ping?: { instance: string; n: number };
}

export class ChannelWatch {
  /** Everything heard, in order. */
  readonly heard: Heard[] = [];

  private constructor(private readonly client: pg.Client) {
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL) return;
      const payload = n.payload ?? '';
      const ping = /^ping (\S+) (\d+)$/.exec(payload);
      this.heard.push(ping ? { payload, ping: { instance: ping[1]!, n: Number(ping[2]) } } : { payload });
    });
  }

  /** Listens from now on (open it before the change to be awaited). */
  static async open(url: string): Promise<ChannelWatch> {
    const client = new pg.Client({ connectionString: url, application_name: 'bookkeeping-test-watch' });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return new ChannelWatch(client);
  }

  /** Where the next notification will be in `heard` (a mark to count from). */
  get mark(): number {
    return this.heard.length;
  }

  /** The instances that pinged after `mark`, each with how many times. */
  pingsSince(mark: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const h of this.heard.slice(mark)) if (h.ping) counts.set(h.ping.instance, (counts.get(h.ping.instance) ?? 0) + 1);
    return counts;
  }

  /** The position of the first announcement after `mark` that is `payload`, or -1. */
  indexOf(payload: string, mark = 0): number {
    return this.heard.findIndex((h, i) => i >= mark && h.payload === payload);
  }

  /**
   * True once an announcement `payload` (after `mark`) is followed by at least `times` pings of each of
   * `instances` instances: they have all heard it.
   */
  heardByAll(payload: string, instances: number, mark = 0, times = 1): boolean {
    const at = this.indexOf(payload, mark);
    if (at < 0) return false;
    const after = [...this.pingsSince(at + 1).values()].filter((n) => n >= times);
    return after.length >= instances;
  }

  /** How many pings the instance that began listening after the watch (its first ping, n = 1, heard here) has sent. */
  pingsOfNewInstance(): number {
    const fresh = this.heard.find((h) => h.ping?.n === 1)?.ping?.instance;
    return fresh === undefined ? 0 : this.heard.filter((h) => h.ping?.instance === fresh).length;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
