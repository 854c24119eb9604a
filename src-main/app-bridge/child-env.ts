/**
 * The environment every child process of the app gets: this process's, without the app's secrets. No
 * child needs them (the browser the shell opens, the build, Electron's download, the app `npm start`
 * launches), and a child keeps what it is given: a browser passes its environment on to every program it
 * starts, and a crash reporter may upload it.
 *
 * Proxy settings (HTTPS_PROXY...) stay, credentials and all: they are the user's network, which a download
 * through an authenticating proxy needs, not a secret of this app.
 */

/** What the app, its command line and the service's read as secrets (src-main/core/secrets, src-service/cli). */
export const SECRET_ENV_NAMES = ['BOOKKEEPING_PASSWORD', 'BOOKKEEPING_CLIENT_KEY', 'BOOKKEEPING_DATABASE_URL', 'PGPASSWORD'] as const;

const SECRET = new Set<string>(SECRET_ENV_NAMES);

/**
 * `env` (default: this process's) with `extra` laid over it and every secret left out. Names are compared
 * in capitals, since Windows reads `Bookkeeping_Password` as the same variable.
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries({ ...env, ...extra }).filter(([name]) => !SECRET.has(name.toUpperCase())));
}
