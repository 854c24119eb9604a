/**
 * A refusal that is the caller's doing: a broken rule, an unknown or foreign id, a read-only account.
 * Its message is written for the caller (it names the parameter or the rule) and is safe to send: the
 * service answers it as a Client fault, the admin command line prints it. Anything else thrown is the
 * service's own failure and is never shown to a caller.
 */
export class RuleError extends Error {
  override name = 'RuleError';
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
