/**
 * Where the app keeps its local copy when no --data is given: the same user-data folder Electron uses
 * for an app named "Bookkeeping", so the desktop app and the browser shell find the same data.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_DIR_NAME = 'Bookkeeping';
export const DATA_FILE_NAME = 'bookkeeping.sqlite';

export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), APP_DIR_NAME);
}

export function defaultDataFile(): string {
  return join(defaultUserDataDir(), DATA_FILE_NAME);
}

export const LOG_FILE_NAME = 'bookkeeping.log';

/** The desktop app's and the browser shell's log, in the user-data folder's logs/. */
export function logFileIn(userDataDir: string): string {
  return join(userDataDir, 'logs', LOG_FILE_NAME);
}
