/** Cars are created by name; the service knows them only by number (CarId): what helps pick it. */
import type { AppErrorData } from './errors';

/** A car number the local copy has refuelings of. */
export interface CarIdSeen {
  carId: number;
  /** Its name in the car list, or null when it is not (any more) in the list. */
  name: string | null;
  refuelings: number;
  lastDate: string | null;
  lastTachometer: number | null;
}

/** What the service says about a car number (CarFuelList), asked as the user types it. */
export interface CarCheck {
  carId: number;
  /** The car list's name for this number, when it is already in the list. */
  name: string | null;
  /** The service's answer; null when it could not be asked (see problem). */
  service: {
    /** Refuelings it listed (it lists at most the last 50: `more` when it listed that many). */
    refuelings: number;
    more: boolean;
    lastDate: string | null;
    lastTachometer: number | null;
  } | null;
  /** Why the service could not be asked: not connected, unreachable, credentials refused... */
  problem: AppErrorData | null;
}

/** A car's refuelings read from the service at once (fetchCarRefuelings). */
export interface CarFetch {
  carId: number;
  /** Refuelings the service listed, now in the local copy; null when it could not be asked (see problem). */
  refuelings: number | null;
  /** Why not: not connected, working offline, unreachable...: they come with the next sync that goes through. */
  problem: AppErrorData | null;
}
