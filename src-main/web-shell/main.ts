/**
 * `npm run web`: the browser shell. Opens the local copy with the same core as the desktop app and
 * serves the built renderer to a browser on this machine. The client key and password are kept in this
 * process's memory only (a browser has no access to the operating system's keychain), so after a restart
 * the app asks for them again rather than storing them in plain text.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appVersion } from '../app-bridge/app-version';
import { childEnv } from '../app-bridge/child-env';
import { defaultDataFile, defaultUserDataDir, logFileIn } from '../app-bridge/data-location';
import { openAppLog } from '../core/log/app-log';
import { openRecoverableCore } from '../core/app/recoverable-core';
import { sealedSecrets } from '../core/secrets';
import { WEB_USAGE, parseWebShellArgs } from './args';
import { startWebShell } from './server';

const root = join(import.meta.dirname, '..', '..');

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : [process.platform === 'darwin' ? 'open' : 'xdg-open', [url]];
  const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true, env: childEnv() });
  child.on('error', () => console.error('Could not open a browser; open the address above by hand.'));
  child.unref();
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseWebShellArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  if (args.help) {
    console.log(WEB_USAGE);
    return;
  }
  const rendererDir = join(root, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.error('The app is not built yet: run `npm run build` first.');
    process.exit(1);
  }
  const dataFile = args.dataFile ?? defaultDataFile();
  mkdirSync(dirname(dataFile), { recursive: true });

  const appLog = openAppLog(logFileIn(defaultUserDataDir()));
  const core = openRecoverableCore({ dataFile, secrets: (persistence) => sealedSecrets(persistence), appLog, about: { version: appVersion(root), runtime: `browser shell, Node ${process.versions.node}` } });
  const shell = await startWebShell({ core, rendererDir, host: args.host, port: args.port });
  console.log(`Bookkeeping is open at ${shell.url}`);
  if (args.open) openInBrowser(shell.url);

  const stop = async () => {
    await shell.close();
    await core.close();
    appLog.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  console.error(`The browser shell could not start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
