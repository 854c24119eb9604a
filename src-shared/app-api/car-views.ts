/** Cars are created by name; the service knows them only by number (CarId): what helps pick it. */
import type { CarCostKind, CarCostStored } from '../records/car-cost';
import type { ReminderStored } from '../records/reminder';
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

// ---- the whole cost of a car, and its reminders (kept on this computer only) ---------------------------

/** Fuel (the refuelings), the other costs, and both. */
export interface CostSplit {
  fuel: string;
  other: string;
  total: string;
}

/** What one kind of cost came to in the period: 'fuel' for the refuelings. */
export interface KindTotal {
  kind: 'fuel' | CarCostKind;
  total: string;
  count: number;
}

export interface CostMonth extends CostSplit {
  /** YYYY-MM */
  month: string;
}

/** Everything a car cost in a period, fuel and other costs, in one currency (see src-main/core/cars/car-costs.ts). */
export interface CarWholeCost {
  carId: number;
  /** The currency every figure is in: the one most of the car's records have at rate 1. */
  currency: number;
  /** The period counted: the earliest record's day (or the asked start) to the asked end, else today (or a later record's day). */
  from: string | null;
  to: string;
  /** Calendar months from the month of `from` to that of `to`, both counted (0 without records). */
  months: number;
  /** Kilometres between the lowest and the highest reading of the period (refuelings' and costs'); null with fewer than two. */
  distance: number | null;
  totals: CostSplit;
  /** Every kind with its total, fuel first, in the kinds' order; kinds without costs have 0. */
  byKind: KindTotal[];
  /** Per kilometre, to the currency's minor units and two places more; null without a distance. */
  perKm: CostSplit | null;
  /** Per month, to the currency's minor units; null without records. */
  perMonth: CostSplit | null;
  byMonth: CostMonth[];
  /** The other costs of the period, newest first. */
  costs: CarCostStored[];
}

/**
 * due: its date has come or the odometer reached its reading; soon: within the soon thresholds of either
 * (REMINDER_SOON); later: neither; done: closed.
 */
export type ReminderState = 'due' | 'soon' | 'later' | 'done';

export interface ReminderView extends ReminderStored {
  state: ReminderState;
  /** Days until its date (negative: past); null without a date. */
  daysLeft: number | null;
  /** Kilometres until its reading (negative: passed); null without one, or without any reading of the car. */
  kmLeft: number | null;
}

/** The latest odometer reading known of a car: the latest refueling's, or a later cost's. */
export interface OdometerReading {
  km: number;
  date: string;
}

export interface CarReminders {
  carId: number;
  /** The day the states are worked out for. */
  today: string;
  odometer: OdometerReading | null;
  /** What "soon" means: within this many days or kilometres. */
  soon: { days: number; km: number };
  reminders: ReminderView[];
}
