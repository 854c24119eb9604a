/**
 * The register: every transaction of one account (or of all accounts of one currency) newest first,
 * read a page at a time by keyset from SQLite, with the running balance after each row and the other
 * side of each transfer. Pending transfers (waiting in the outbox) are laid over the stored history.
 */
import type { Id, OutboxStatus, TransactionView } from './views';

/** Where a page starts: the row it follows, as the register gave it (or none: the newest, or the oldest). */
export interface RegisterCursor {
  paymentDate: string;
  /** The row's key: the stored row's, or `pending:<id>` for a pending transfer's side. */
  key: string;
  id: Id | null;
  /** The outbox entry of a pending row; null for a stored one. */
  outboxId: number | null;
}

/** The other side of a transfer: the transaction on the other account. */
export interface Counterpart {
  accountId: Id;
  /** null when the account is not in the local copy (not shared with this user, or gone). */
  accountName: string | null;
  transactionId: Id | null;
  key: string;
  pending: boolean;
}

/** A transaction of the register: what a list of transactions shows, and where it stands in the register. */
export interface RegisterRow extends Omit<TransactionView, 'userId' | 'userCreatedId'> {
  key: string;
  accountName: string;
  /** The outbox entry of a pending row; null for a stored one. */
  outboxId: number | null;
  /** The balance right after this row (of the account, or of all the register's accounts together). */
  balance: string;
  /** The row is one side of a transfer (its type is the transfer type). */
  transfer: boolean;
  /** The other side of the transfer, when the local copy holds it. */
  counterpart: Counterpart | null;
}

export interface RegisterPage {
  /** Newest first. */
  rows: RegisterRow[];
  /** More rows lie beyond this page in the direction read. */
  more: boolean;
  /** Every row of the register (when asked for with counts). */
  total: number | null;
  /** How many rows come before (are newer than) the page's first row (when asked for with counts). */
  position: number | null;
  currency: number;
  /** The balance now (pending writes included): the running balance of the newest row. */
  balance: string;
  accountIds: Id[];
}

/** One transaction with everything the local copy knows of it. */
export interface TransactionDetail extends RegisterRow, Pick<TransactionView, 'userId' | 'userCreatedId'> {
  currency: number;
  /** The category and its ancestors, top level first (names); empty without a category. */
  categoryPath: string[];
  /** 'synced': the service has it; 'pending': it waits in the outbox to be sent. */
  state: 'synced' | 'pending';
  /** The outbox entry of a pending row: its status, the service's message, when it was made. */
  outbox: { id: number; status: OutboxStatus; message: string | null; createdAt: string; attempts: number } | null;
  /** When this local copy first stored the row or last saw it change (UTC ISO 8601); null when not known. */
  changedAt: string | null;
}
