/** What a handler gets besides its parameters: the store, the authenticated user and the service's clock. */
import type { DataAccess, UserRow } from '../store';

export interface CallContext {
  /** The store inside the read or the write the handler runs in. */
  store: DataAccess;
  user: UserRow;
  /** The IANA zone whose wall clock dateTimes are in. */
  timeZone: string;
  /** Milliseconds since the epoch; injectable so that tests can fix "now". */
  now(): number;
}
