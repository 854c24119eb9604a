/**
 * Finds a Chromium-family browser for the browser tests, where developers have one: CHROMIUM_PATH first;
 * then the usual names on PATH (chromium, chromium-browser, google-chrome, google-chrome-stable,
 * microsoft-edge); then the usual install paths on macOS and Windows; then a Chromium that Playwright
 * already downloaded into its cache. Never downloads one.
 */
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'] as const;

export const HOW_TO_GET_A_BROWSER =
  'install one (Debian/Ubuntu: apt-get install chromium; macOS: brew install --cask chromium) or point CHROMIUM_PATH at a Chrome, Chromium or Edge.';

export interface FoundBrowser {
  path: string;
  /** Where it was found. */
  source: 'CHROMIUM_PATH' | 'PATH' | 'install path' | 'Playwright cache';
}

export class BrowserPathError extends Error {
  override name = 'BrowserPathError';
}

interface Where {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

function executable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installPaths({ env, platform, home }: Where): string[] {
  if (platform === 'darwin') {
    return [
      'Chromium.app/Contents/MacOS/Chromium',
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ].flatMap((app) => [join('/Applications', app), join(home, 'Applications', app)]);
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => Boolean(r));
    return roots.flatMap((r) => [
      join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      join(r, 'Chromium', 'Application', 'chrome.exe'),
    ]);
  }
  return [];
}

function playwrightCache({ env, platform, home }: Where): string[] {
  const cache =
    env.PLAYWRIGHT_BROWSERS_PATH ||
    (platform === 'darwin'
      ? join(home, 'Library', 'Caches', 'ms-playwright')
      : platform === 'win32'
        ? join(env.LOCALAPPDATA ?? home, 'ms-playwright')
        : join(home, '.cache', 'ms-playwright'));
  let dirs: string[];
  try {
    dirs = readdirSync(cache).filter((d) => /^chromium(_headless_shell)?-\d+$/.test(d));
  } catch {
    return [];
  }
  // The newest revision first.
  dirs.sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()));
  const inside =
    platform === 'darwin'
      ? ['chrome-mac/Chromium.app/Contents/MacOS/Chromium', 'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium']
      : platform === 'win32'
        ? ['chrome-win/chrome.exe', 'chrome-win64/chrome.exe']
        : ['chrome-linux/chrome', 'chrome-linux64/chrome'];
  return dirs.flatMap((d) => inside.map((i) => join(cache, d, i)));
}

/** The browser to use, or null when there is none; a CHROMIUM_PATH that names no program is an error. */
export function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = env.HOME || homedir(),
): FoundBrowser | null {
  const where = { env, platform, home };
  const given = env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given) || !executable(given, platform)) {
      throw new BrowserPathError(`CHROMIUM_PATH is ${given}, which is not a program: fix it, or unset it to search.`);
    }
    return { path: given, source: 'CHROMIUM_PATH' };
  }
  const extensions = platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of BROWSER_NAMES) {
      for (const ext of extensions) {
        const file = join(dir, name + ext);
        if (executable(file, platform)) return { path: file, source: 'PATH' };
      }
    }
  }
  for (const file of installPaths(where)) if (executable(file, platform)) return { path: file, source: 'install path' };
  for (const file of playwrightCache(where)) if (executable(file, platform)) return { path: file, source: 'Playwright cache' };
  return null;
}
