/**
 * The parts of the app core that features beyond the service's own operations are built from: the
 * local copy, the outbox and its view, the queue of local writes. Each feature module takes these
 * and returns its handlers of the app API, so that the core's own file stays a table of wiring.
 */
import type { AppError, AppMethod, AppStatus, DataTable, InputOf, OutputOf, Preferences } from '../../../src-shared/app-api';
import type { LocalView } from '../outbox/local-view';
import type { LocalWrites } from '../outbox/writes';
import type { SecretStore } from '../secrets';
import type { Outbox } from '../store/outbox';
import type { Store } from '../store/store';
import type { SyncEngine } from '../sync/engine';
import type { ServiceLink } from './service-link';

export type Handlers<M extends AppMethod = AppMethod> = { [K in M]: (input: InputOf<K>) => Promise<OutputOf<K>> };

export interface CoreParts {
  readonly store: Store;
  readonly outbox: Outbox;
  readonly view: LocalView;
  readonly writes: LocalWrites;
  /** Wall-clock now in the app's time zone (YYYY-MM-DDTHH:mm:ss). */
  now(): string;
  /** The app's time zone (the machine's unless given): the zone of the wall clocks now() writes. */
  readonly timeZone: string;
  preferences(): Preferences;
  /** Throws a 'busy' AppError while a sync runs, in this process or another one on the same file. */
  assertIdle(): void;
  /** Tells the screens that the local data of these tables changed (by default all; none: the status only). */
  changed(tables?: readonly DataTable[]): Promise<void>;
  /** Forgets the SOAP client, after the stored connection may have changed (a restore). */
  forgetClient(): void;
}

/** What the core's own modules (connection, records, outbox, sync) are built from besides the parts. */
export interface CoreServices extends CoreParts {
  readonly link: ServiceLink;
  readonly engine: SyncEngine;
  readonly secrets: SecretStore;
  /** The status the header shows. */
  status(): Promise<AppStatus>;
  /** Any failure as the AppError the caller gets (a bug logged, never its details). */
  toAppError(e: unknown): AppError;
}
