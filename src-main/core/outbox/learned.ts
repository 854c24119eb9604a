/**
 * Facts read back from the service's answers, used to show pending writes the way the service will
 * record them. The client treats codes as the service's (service-decisions.md): it learns them from
 * answers instead of predicting them, and uses the documented values only until it has seen one.
 */
import type { Store } from '../store/store';

export interface LearnedFacts {
  /** The transaction Type the service gave the last transfer. */
  transferType: number | null;
  /** Whether the service books the source side of a transfer as a negative amount. */
  sourceNegative: boolean | null;
  /** The permission the service gave the creator of a new account. */
  ownerPermission: number | null;
}
/** The transaction Type of a transfer (service-decisions.md), until the service is seen to use another. */
const DEFAULT_TRANSFER_TYPE = 3;
/** The permission of an account's creator (service-decisions.md: 3, owner), until seen otherwise. */
export const DEFAULT_OWNER_PERMISSION = 3;

/** What the local copy has learned so far; nothing before the first answers. */
export function learnedFacts(store: Store): LearnedFacts {
  return store.settings.get('learned');
}

/** The transaction Type transfers get: the one the service was seen to give them, else the documented one. */
export const transferTypeOf = (learned: LearnedFacts): number => learned.transferType ?? DEFAULT_TRANSFER_TYPE;
