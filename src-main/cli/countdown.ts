/**
 * "Trying again in 12 s" while a sync waits for the service: redrawn in place each second on a
 * terminal, one line per wait otherwise (a log, a pipe).
 */
import type { CliIo } from './command';

export class Countdown {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly io: Pick<CliIo, 'stderr' | 'redraw'>) {}

  start(until: number, reason: string): void {
    this.stop();
    const line = () => `${reason} Trying again in ${Math.max(0, Math.ceil((until - Date.now()) / 1000))} s...`;
    const redraw = this.io.redraw;
    if (!redraw) {
      this.io.stderr(line());
      return;
    }
    redraw(line());
    this.timer = setInterval(() => redraw(line()), 1000);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.io.redraw?.('');
  }
}
