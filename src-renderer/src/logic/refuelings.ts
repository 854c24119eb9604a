/** Checks on a refueling before it is queued: the odometer must grow with the date. */
import type { RefuelingView } from '../../../src-shared/app-api';

export type OdometerWarning = { kind: 'not-increasing'; previous: number } | { kind: 'above-next'; next: number };

/**
 * Compares an odometer reading with the car's other refuelings: it should be above the reading of the
 * latest earlier refueling and below the earliest later one. `lastTachometer` stands in when the car's
 * refuelings are not loaded.
 */
export function odometerWarning(
  reading: number,
  date: string,
  others: readonly RefuelingView[],
  options: { excludeId?: number; lastTachometer?: number | null } = {},
): OdometerWarning | null {
  const list = others.filter((r) => r.id !== options.excludeId).map((r) => ({ ...r, dateOfPurchase: sortableWall(r.dateOfPurchase) }));
  date = sortableWall(date);
  if (list.length === 0) {
    const last = options.lastTachometer;
    return last !== null && last !== undefined && reading <= last ? { kind: 'not-increasing', previous: last } : null;
  }
  let previous: RefuelingView | null = null;
  let next: RefuelingView | null = null;
  for (const r of list) {
    if (r.dateOfPurchase <= date) {
      if (
        !previous ||
        r.dateOfPurchase > previous.dateOfPurchase ||
        (r.dateOfPurchase === previous.dateOfPurchase && r.tachometer > previous.tachometer)
      ) {
        previous = r;
      }
    } else if (!next || r.dateOfPurchase < next.dateOfPurchase) next = r;
  }
  if (previous && reading <= previous.tachometer) return { kind: 'not-increasing', previous: previous.tachometer };
  if (next && reading >= next.tachometer) return { kind: 'above-next', next: next.tachometer };
  return null;
}

/** Kilometres driven since the refueling before each one (list newest first, as the service sends it). */
export function distances(newestFirst: readonly RefuelingView[]): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < newestFirst.length - 1; i++) {
    const d = newestFirst[i]!.tachometer - newestFirst[i + 1]!.tachometer;
    if (d > 0) out.set(newestFirst[i]!.id, d);
  }
  return out;
}

/** Wall-clock text that compares correctly as a string ("…T14:05" and "…T14:05:00" alike). */
export const sortableWall = (text: string): string => (text.length === 16 ? `${text}:00` : text);
