import { compare, parseDecimal } from '../../../src-shared/money';
import type { AnyRecord } from '../../../src-shared/records/fields';
import { fieldRules } from '../../../src-shared/validate';
import { EffectUndecidable } from './kind';

/**
 * What the service's lists can show of a write: they hold the last 50 records by date, and a service
 * in another time zone may write dates with an offset that this machine reads back shifted.
 */

const QUARTER_HOUR = 15 * 60_000;
const MAX_ZONE_SHIFT = 14 * 3_600_000;
const wallMillis = (wall: string) => Date.parse(`${wall.slice(0, 19)}Z`);

/**
 * Whether a date the service lists can be the wall time the client sent. A service in another time
 * zone that writes dates with an offset is read back in this machine's zone: shifted by whole quarter
 * hours, at most 14 hours (seconds and fractions aside).
 */
export function sameMoment(listed: string, sent: string): boolean {
  const shift = wallMillis(listed) - wallMillis(sent);
  return Math.abs(shift) <= MAX_ZONE_SHIFT && shift % QUARTER_HOUR === 0;
}

/** How many records the service's transaction and refueling lists hold at most ("the last 50"). */
const LISTED = 50;

/**
 * Whether a record dated `date` may be missing from a list although it exists: the list is full and
 * the record is not clearly newer than its oldest one (a service that lists the last 50 by date leaves
 * it out; "clearly": beyond what another zone's offset can shift, see sameMoment).
 */
export function mayBeUnlisted(dates: readonly string[], date: string): boolean {
  if (dates.length < LISTED) return false;
  const oldest = Math.min(...dates.map(wallMillis));
  return wallMillis(date) <= oldest + MAX_ZONE_SHIFT;
}

/** Texts compared as the service may store them (without surrounding spaces). */
export const trimEq = (a: string, b: string): boolean => a.trim() === b.trim();

/**
 * Whether a record the service lists holds what a write sent, in every field its table marks `match` (the
 * record's `matched`): a date the same moment (sameMoment), a decimal the same number, a text the same (without
 * surrounding spaces where its rule trims them; `caseless`: in any case), anything else the same value.
 * `listed` is the listed record in the write's terms (fromWire).
 */
export function sameFields(
  record: AnyRecord & { matched: readonly string[] },
  listed: object,
  sent: object,
  options: { caseless?: boolean } = {},
): boolean {
  const [mine, theirs] = [sent as Record<string, unknown>, listed as Record<string, unknown>];
  return record.matched.every((k) => {
    const f = record.fields[k]!;
    const [a, b] = [theirs[k], mine[k]];
    if (f.type === 'dateTime') return sameMoment(String(a), String(b));
    if (f.type === 'decimal') return compare(parseDecimal(String(a))!, parseDecimal(String(b))!) === 0;
    if (f.type !== 'text') return a === b;
    const trim = f.input !== undefined && fieldRules(f.input).trim === true;
    const text = (s: unknown) => (options.caseless ? String(s).toLowerCase() : String(s));
    return trim ? trimEq(text(a), text(b)) : text(a) === text(b);
  });
}

/** A create's probe read from an older copy that came back (outbox/revive.ts), not from the service before a send. */
export const revivedProbe = (ids: number[]) => ({ ids, revived: true });

const isRevived = (probe: unknown): boolean =>
  typeof probe === 'object' && probe !== null && (probe as { revived?: unknown }).revived === true;

/**
 * A create an older copy brought back, not found on the service: it did not happen only if nothing else new is
 * there either. The copy that replaced it may have sent it and then changed it (renamed the category, edited the
 * refueling), and a changed record can no longer be told by its fields: then the user decides, never a resend.
 */
export function assertNothingUnexplained(probe: unknown, unexplained: number): void {
  if (!isRevived(probe) || unexplained === 0) return;
  throw new EffectUndecidable(
    'This write came back with an older copy of your data, and the service has records added since that this copy cannot tell apart from it ' +
      '(it may have been sent and then changed). Check the service: if it has this record, discard the write; if not, retry it.',
  );
}

/** Ids a probe recorded as existing before a create was sent. */
export function idsBefore(probe: unknown): Set<number> {
  return new Set(probe && typeof probe === 'object' && 'ids' in probe ? (probe as { ids: number[] }).ids : []);
}
