/**
 * The command line's exit codes, written once: scripts that sync (a cron job, a shell loop) tell
 * "all delivered" from "the service refused some writes" (a person must look) from "the service is
 * unavailable, writes wait" (try again later) without reading the text.
 */
import type { SyncSummary } from '../../src-shared/app-api';

export const SYNC_EXIT = {
  /** Everything sent and fetched; nothing waits for the user. */
  delivered: 0,
  /** Usage errors, refused credentials, a certificate not trusted, data the app cannot accept. */
  failed: 1,
  /** The sync ran, but the service refused some writes, or some are in conflict or undecidable. */
  refused: 2,
  /** The service was unavailable (or the sync ran out of time): writes still wait for the next sync. */
  unavailable: 3,
  /** Cancelled with Ctrl-C: nothing lost; what was not sent waits (128 + SIGINT, as shells expect). */
  cancelled: 130,
} as const;

export function syncExitCode(s: SyncSummary): number {
  switch (s.errorCode) {
    case null:
      return s.refused > 0 || s.conflicts > 0 || s.unknown > 0 || s.undecidable > 0 ? SYNC_EXIT.refused : SYNC_EXIT.delivered;
    case 'unavailable':
      return SYNC_EXIT.unavailable;
    case 'cancelled':
      return SYNC_EXIT.cancelled;
    default:
      return SYNC_EXIT.failed;
  }
}
