/**
 * The service's log: one line per event on stderr. Callers pass messages that hold no secret (no
 * password, no client key, no request body); internal errors are logged with their stack here and
 * never sent to a caller.
 */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`${new Date().toISOString()} ${message}\n`),
  error: (message, error) =>
    process.stderr.write(`${new Date().toISOString()} ERROR ${message}${error === undefined ? '' : `\n${describe(error)}`}\n`),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };
