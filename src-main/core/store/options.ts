/** How a local copy is opened. */
import type { Migration } from './migrations';

export interface StoreOptions {
  /** Migrations to apply (tests add later versions). */
  migrations?: readonly Migration[];
  /** How long to wait for another connection's write lock, in ms. */
  busyTimeoutMs?: number;
  /** better-sqlite3's native module to load instead of the default (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** No automatic safety copy, before a migration, daily or after a sync (a temporary copy being upgraded or recovered, a benchmark's). */
  noSafetyCopies?: boolean;
  /** The clock of the safety copies' dates (tests move it); default the system's. */
  now?: () => Date;
}
