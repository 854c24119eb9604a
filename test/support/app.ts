/**
 * The app as the browser shell runs it, for tests: a real core on a temp local copy, served with the
 * built renderer on loopback. `npm test` builds the renderer before the suite runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { startWebShell, type WebShell } from '../../src-main/web-shell/server';

export const RENDERER_DIR = join(import.meta.dirname, '..', '..', 'out', 'renderer');

export interface TestApp {
  core: AppCore;
  shell: WebShell;
  dataFile: string;
  close(): Promise<void>;
}

export function newLocalDataFile(): { dataFile: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-app-'));
  return { dataFile: join(dir, 'local.sqlite'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startTestApp(opts: { dataFile?: string } = {}): Promise<TestApp> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` (npm test does it first).');
  }
  const temp = opts.dataFile === undefined ? newLocalDataFile() : null;
  const dataFile = opts.dataFile ?? temp!.dataFile;
  const core = createAppCore({ dataFile, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague', log: () => {} });
  const shell = await startWebShell({ core, rendererDir: RENDERER_DIR, log: () => {} });
  return {
    core,
    shell,
    dataFile,
    async close() {
      await shell.close();
      await core.close();
      temp?.remove();
    },
  };
}
