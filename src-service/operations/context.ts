/** What a handler gets besides its parameters: the store, the authenticated user and the service's clock. */
import type { Store } from '../store';
import type { UserRow } from '../store/users';

export interface CallContext {
  store: Store;
  user: UserRow;
  /** The IANA zone whose wall clock dateTimes are in. */
  timeZone: string;
  /** Milliseconds since the epoch; injectable so that tests can fix "now". */
  now(): number;
}
