/**
 * `npm run web`: the browser shell. Opens the local copy with the same core as the desktop app and
 * serves the built renderer to a browser on this machine. The client key and password are kept in this
 * process's memory only (a browser has no access to the operating system's keychain), so after a restart
 * the app asks for them again rather than storing them in plain text.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appVersion } from '../app-bridge/app-version';
import { defaultDataFile, defaultUserDataDir, logFileIn } from '../app-bridge/data-location';
import { openRecoverableCore } from '../core/app/recoverable-core';
import { openAppLog } from '../core/log/app-log';
import { sealedSecrets } from '../core/secrets';
import { ownerOnlyDir } from '../core/store/owner-only';
import { WEB_USAGE, parseWebShellArgs } from './args';
import { HANDOVER_TTL_MS } from './handover';
import { openInBrowser } from './open-browser';
import { startWebShell, type WebShell } from './server';

const root = join(import.meta.dirname, '..', '..');

/**
 * With --open, the browser gets a one-time page and the address printed holds no key; the address with the
 * key is printed (on the owner's terminal) only when the browser did not come for the page.
 */
function open(shell: WebShell): void {
  const byHand = (why: string) => console.log(`${why}; open this address by hand: ${shell.url}`);
  let opening;
  try {
    opening = openInBrowser(shell);
  } catch (e) {
    return byHand(`Could not write the page that opens the browser (${e instanceof Error ? e.message : String(e)})`);
  }
  console.log(`Bookkeeping is opening in your browser (${shell.origin}).`);
  void opening.outcome.then((how) => {
    if (how === 'expired') byHand(`The browser did not open the app within ${HANDOVER_TTL_MS / 1000} seconds`);
    if (how === 'not-opened') byHand('Could not open a browser');
  });
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
  // The app's own folder is its owner's alone; a folder the user named stays as they keep it.
  if (args.dataFile === undefined) ownerOnlyDir(dirname(dataFile));
  else mkdirSync(dirname(dataFile), { recursive: true });

  const appLog = openAppLog(logFileIn(defaultUserDataDir()));
  const core = openRecoverableCore({
    dataFile,
    secrets: (persistence) => sealedSecrets(persistence),
    appLog,
    about: { version: appVersion(root), runtime: `browser shell, Node ${process.versions.node}` },
  });
  const shell = await startWebShell({ core, rendererDir, host: args.host, port: args.port });
  if (args.open) open(shell);
  else console.log(`Bookkeeping is open at ${shell.url}`);

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
