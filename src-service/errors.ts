/**
 * A refusal that is the caller's doing: a broken rule, an unknown or foreign id, a read-only account.
 * Its message is written for the caller (it names the parameter or the rule) and is safe to send: the
 * service answers it as a Client fault, the admin command line prints it. Anything else thrown is the
 * service's own failure and is never shown to a caller.
 */
export class RuleError extends Error {
  override name = 'RuleError';
}

/** The one answer to every credential mismatch, so that a caller cannot tell which part was wrong. */
export const INVALID_CREDENTIALS = 'Invalid credentials';
