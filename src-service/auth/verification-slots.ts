/**
 * The password verifications (scrypt: a core and 32 MiB for a quarter of a second or more each) that run
 * at once, and whose turn is next, so that a flood of calls with made-up logins cannot starve other
 * users' logins. Without it every verification went straight to libuv's pool, first come first served: 64
 * calls at once from one client made a real user's first login wait behind all of them.
 *
 * - `concurrent` run at once, and no address (client-address.ts) runs more than `concurrent - 1` of them
 *   (at least one): a slot is always left for the others, so another address's verification starts
 *   at the next free slot, and at once when a flood comes from one address.
 * - Waiting verifications are served address by address in turn (round robin: an address served goes to
 *   the back), each address's in the order they came.
 * - Renewals of verifications in use (credentials scrypt has confirmed, renewed in the background) go
 *   before every address: a known client never waits behind unknown ones. A verification found in the
 *   cache needs no slot at all.
 * - At most `queuedPerAddress` wait per address and `queuedTotal` in all; a verification beyond is told to
 *   try again (ServiceBusy: 503 with Retry-After), never that the credentials are wrong.
 */
import { availableParallelism } from 'node:os';
import { ServiceBusy } from '../errors';

export interface VerificationSlotOptions {
  /** Verifications running at once (each on a thread of libuv's pool, 4 by default, and a core). */
  concurrent: number;
  /** Verifications of one address waiting their turn; more are told to try again. */
  queuedPerAddress: number;
  /** Verifications waiting in all; more are told to try again. */
  queuedTotal: number;
}

export const DEFAULT_VERIFICATION_SLOTS: VerificationSlotOptions = {
  concurrent: Math.min(4, Math.max(2, availableParallelism())),
  queuedPerAddress: 16,
  queuedTotal: 1024,
};

export const VERIFICATIONS_BUSY = 'The service is busy verifying other logins; try again shortly.';

/** A renewal of a verification in use: served before any address. */
export const RENEWAL = Symbol('renewal');
type From = string | typeof RENEWAL;

/** One address's verifications: those waiting (their wake-ups, oldest first) and how many run. */
interface Lane {
  waiting: (() => void)[];
  running: number;
}

export class VerificationSlots {
  private running = 0;
  private waiting = 0;
  private readonly renewals: (() => void)[] = [];
  /** Addresses with verifications waiting or running, in the order of their turns (a Map keeps insertion order). */
  private readonly lanes = new Map<string, Lane>();
  private readonly perAddress: number;

  constructor(private readonly options: VerificationSlotOptions = DEFAULT_VERIFICATION_SLOTS) {
    this.perAddress = Math.max(1, options.concurrent - 1);
  }

  /** Whether a verification from `address` would get a place now (false: it would be told to try again). */
  admits(address: string): boolean {
    return this.waiting < this.options.queuedTotal && (this.lanes.get(address)?.waiting.length ?? 0) < this.options.queuedPerAddress;
  }

  /** Runs `verify` in its turn; throws ServiceBusy when `from` has too many waiting already. */
  async run<T>(from: From, verify: () => Promise<T>): Promise<T> {
    await this.turn(from);
    try {
      return await verify();
    } finally {
      this.release(from);
    }
  }

  /** Verifications running and waiting now (for tests and the benchmark). */
  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting + this.renewals.length };
  }

  private turn(from: From): Promise<void> | undefined {
    if (from === RENEWAL) {
      if (this.running < this.options.concurrent) {
        this.running += 1;
        return undefined;
      }
      return new Promise((resolve) => this.renewals.push(resolve));
    }
    const lane = this.lanes.get(from) ?? { waiting: [], running: 0 };
    // A free slot means that nobody who may take it waits (release hands each one on at once).
    if (this.running < this.options.concurrent && lane.running < this.perAddress) {
      this.start(from, lane);
      return undefined;
    }
    if (!this.admits(from)) throw new ServiceBusy(VERIFICATIONS_BUSY);
    this.lanes.set(from, lane);
    this.waiting += 1;
    return new Promise((resolve) => lane.waiting.push(resolve));
  }

  /** `from` runs one now, and goes to the back of the turns. */
  private start(from: string, lane: Lane): void {
    this.running += 1;
    lane.running += 1;
    this.lanes.delete(from);
    this.lanes.set(from, lane);
  }

  private release(from: From): void {
    this.running -= 1;
    if (from !== RENEWAL) {
      const lane = this.lanes.get(from)!;
      lane.running -= 1;
      if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(from);
    }
    this.handOn();
  }

  /** Gives free slots to the renewals waiting, then to the first addresses in turn that may run one more. */
  private handOn(): void {
    while (this.running < this.options.concurrent) {
      const renewal = this.renewals.shift();
      if (renewal) {
        this.running += 1;
        renewal();
        continue;
      }
      const next = this.nextInTurn();
      if (!next) return;
      const [from, lane] = next;
      this.waiting -= 1;
      this.start(from, lane);
      lane.waiting.shift()!();
    }
  }

  private nextInTurn(): [string, Lane] | undefined {
    for (const entry of this.lanes) if (entry[1].waiting.length > 0 && entry[1].running < this.perAddress) return entry;
    return undefined;
  }
}
