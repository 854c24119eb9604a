/** Time for the renderer's timing logic that moves only when a test says (no sleeps). */
import type { WatchClock } from '../../src-renderer/src/logic/reachability-watch';

/** A clock whose time moves only when the test says, running the timers that fall due. */
export class FakeClock implements WatchClock {
  private time = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; run: () => void }>();

  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }
  clearTimeout(handle: number): void {
    this.timers.delete(handle);
  }
  get pending(): number {
    return this.timers.size;
  }
  /** Moves time on by `ms`, running each timer that falls due (in order) and letting the checks it starts settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

/** Lets the promise callbacks of a finished check run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
