import type { FaultSubcode } from '../src-shared/wire';

/**
 * A refusal that is the caller's doing: a broken rule, an unknown or foreign id, a read-only account.
 * Its message is written for the caller (it names the parameter or the rule) and is safe to send: the
 * service answers it as a Client fault, the admin command line prints it. Anything else thrown is the
 * service's own failure and is never shown to a caller.
 */
export class RuleError extends Error {
  override name = 'RuleError';
  /** The finer code its fault is marked with beside its words (src-shared/wire FAULT_SUBCODES); none for a broken rule. */
  readonly subcode: FaultSubcode | null = null;
}

/**
 * The service cannot decide this call now (not a verdict on it: the login's verifications, or all
 * verifications, are crowded): answered as a Server fault with HTTP 503 and Retry-After, so that a client
 * tries again rather than taking it for refused credentials.
 */
export class ServiceBusy extends Error {
  override name = 'ServiceBusy';
  constructor(
    message = 'The service is busy with other calls of this login; try again shortly.',
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

/** The one answer to every credential mismatch, so that a caller cannot tell which part was wrong. */
export const INVALID_CREDENTIALS = 'Invalid credentials';

/**
 * Refused credentials: the client key, the login or the password, or a locked login, all alike. A Client fault
 * with the decisions' words ("Invalid credentials") and status, marked InvalidCredentials so that a client
 * tells it from every other refusal by that mark, never by the words.
 */
export class CredentialsRefused extends RuleError {
  override name = 'CredentialsRefused';
  override readonly subcode = 'InvalidCredentials';
  constructor() {
    super(INVALID_CREDENTIALS);
  }
}
