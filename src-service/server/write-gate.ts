/**
 * Writes of concurrent requests, gathered for a moment so that more of them share one group commit.
 *
 * The store commits the writes of one turn of the event loop together (store/serving.ts). Under a
 * realistic load writes are a tenth of the requests, so a turn holds one write or none, and a commit
 * carries about three writes: each COMMIT writes the WAL frames of every page its writes touched (two
 * system calls a page), and the reader, whose page cache SQLite drops at every commit it sees, reads its
 * pages again after each one. So while other requests are in flight, a write waits up to `windowMs`
 * and then all the writes waiting run in one turn: one COMMIT, pages several writes touched written
 * once, one drop of the reader's cache for all of them.
 *
 * A write is still answered only once its commit has returned. It runs at once when no other request
 * is in flight (a lone client never waits), and the gate opens early once `maxBatch` writes wait or
 * every connection in use waits here (nothing else can come: clients that each wait for their write
 * would otherwise wait out the window for nothing).
 */
export interface WriteGateOptions {
  /** Longest a write waits for others; 0 runs every write at once. */
  windowMs: number;
  /** Writes that open the gate before the window is over. */
  maxBatch: number;
}

export const DEFAULT_WRITE_GATE: WriteGateOptions = { windowMs: 2, maxBatch: 64 };

export interface WriteGateLoad {
  /** Requests received and not yet answered, the caller's included. */
  requestsInFlight(): number;
  /**
   * Connections in use now: open and with a request lately. Idle keep-alive connections are left out:
   * counting them, writes of clients that all wait here waited out the window for a request no one sends.
   */
  connections(): number;
}

export class WriteGate {
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: WriteGateOptions,
    private readonly load: WriteGateLoad,
  ) {}

  /**
   * Undefined when the caller's write may run now; else a promise that resolves together with those of
   * the other writes of the window. They resolve in one go (microtasks of one callback), so the writes
   * run in one turn and share one group transaction.
   */
  enter(): Promise<void> | undefined {
    if (this.options.windowMs <= 0 || (this.waiting.length === 0 && this.load.requestsInFlight() <= 1)) return undefined;
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length >= this.options.maxBatch || this.waiting.length >= this.load.connections()) this.open();
      else this.timer ??= setTimeout(() => this.open(), this.options.windowMs);
    });
  }

  /** Writes waiting now (tests, diagnostics). */
  get size(): number {
    return this.waiting.length;
  }

  private open(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }
}
