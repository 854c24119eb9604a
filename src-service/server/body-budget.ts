/**
 * The bytes of request bodies held in memory, across all connections at once. Each body may be up to
 * `maxBodyBytes`, and up to `maxConnections` may arrive together: without a shared cap, a thousand slow
 * clients each holding a mebibyte would grow the process towards a gibibyte. A body that would take
 * the total past the cap is refused at once (503 with Retry-After), so memory stays bounded.
 *
 * The first `freeBytesPerBody` of every body are not counted: an ordinary request (a few kilobytes) is
 * never refused because large ones hold the budget, so the service keeps answering everyone else. The
 * most held is then maxConnections x freeBytesPerBody + capBytes.
 */
export class BodyBudget {
  private held = 0;

  constructor(
    readonly capBytes: number,
    readonly freeBytesPerBody: number,
  ) {}

  /** Of a body grown from `before` to `after` bytes, what counts against the budget. */
  counted(before: number, after: number): number {
    return Math.max(0, after - this.freeBytesPerBody) - Math.max(0, before - this.freeBytesPerBody);
  }

  /** Takes `bytes` from the budget; false (and nothing taken) when that would pass the cap. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.capBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** Bytes held now (for tests and diagnostics). */
  get inUse(): number {
    return this.held;
  }
}
