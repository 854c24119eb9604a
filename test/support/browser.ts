/**
 * A Chromium-family browser found on this machine (browser-finder.ts), driven by playwright-core: never
 * a browser downloaded by a test tool. The flags keep it from reaching for a network it may not have.
 *
 * A browser test file starts with `const browser = browserFor(import.meta.url)` and wraps its suites in
 * `describe.skipIf(!browser)`: without a browser they are skipped (and named at the end of the run)
 * outside CI, and fail in CI.
 *
 * The browser sees the fonts of Debian's fonts-dejavu-core and no others where those are installed: all
 * that CI has (.ci/run), so that a page renders here as it does there, whatever else a machine has (this
 * one has fonts-dejavu-extra, whose oblique and condensed faces would otherwise be chosen). Screenshots
 * compared with approved ones (test/e2e/approved.ts) rely on it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, HOW_TO_GET_A_BROWSER, type FoundBrowser } from './browser-finder';
import { needTool } from './external-tools';

let found: FoundBrowser | null | undefined;

/** The browser for the test file `testFile` (its import.meta.url), or null when its suites are to be skipped. */
export function browserFor(testFile: string): FoundBrowser | null {
  found ??= findBrowser();
  return needTool(found !== null, { tool: 'a Chromium-family browser', howToGet: HOW_TO_GET_A_BROWSER }, testFile) ? found : null;
}

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
/** The files of Debian's fonts-dejavu-core. */
const CORE_FONTS = ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSansMono', 'DejaVuSansMono-Bold', 'DejaVuSerif', 'DejaVuSerif-Bold'].map(
  (name) => `${DEJAVU}/${name}.ttf`,
);
/** Debian's Chromium, which CI runs. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

let fontsConfig: string | null | undefined;

/**
 * A fontconfig file that is the system's with every font but those of fonts-dejavu-core refused (the
 * folders that hold them accepted too: fontconfig filters folders by the same rules), or null where they
 * are missing. Written once a process, into a temp folder removed at its exit.
 */
function coreFontsOnly(): string | null {
  if (fontsConfig !== undefined) return fontsConfig;
  if (!CORE_FONTS.every((f) => existsSync(f))) return (fontsConfig = null);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-fonts-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const accepted = ['/usr/share/fonts', '/usr/share/fonts/truetype', DEJAVU, ...CORE_FONTS].map((f) => `<glob>${f}</glob>`).join('');
  fontsConfig = join(dir, 'fonts.conf');
  writeFileSync(
    fontsConfig,
    '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n' +
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n' +
      `  <selectfont><acceptfont>${accepted}</acceptfont><rejectfont><glob>*</glob></rejectfont></selectfont>\n` +
      '</fontconfig>\n',
  );
  return fontsConfig;
}

/**
 * Why pages do not render here as in CI (null when they do): CI runs Debian's Chromium with the fonts of
 * fonts-dejavu-core alone, and the approved screenshots are made so.
 */
export function notAsInCi(): string | null {
  found ??= findBrowser();
  if (!found) return 'no browser was found';
  if (!existsSync(DEBIAN_CHROMIUM) || realpathSync(found.path) !== realpathSync(DEBIAN_CHROMIUM)) {
    return `the browser is ${found.path}, not Debian's ${DEBIAN_CHROMIUM}`;
  }
  if (coreFontsOnly() === null) return `the fonts of fonts-dejavu-core are not in ${DEJAVU}`;
  return null;
}

let debianVersion: string | undefined;

/**
 * What Debian's Chromium says it is (`chromium --version`): its version and the Debian release it was built
 * for, which between them decide how text is drawn (the release brings its FreeType). Asked once a process.
 */
export function debianChromiumVersion(): string {
  debianVersion ??= execFileSync(DEBIAN_CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return debianVersion;
}

export async function launchChromium(): Promise<Browser> {
  found ??= findBrowser();
  if (!found) throw new Error(`No Chromium-family browser found: ${HOW_TO_GET_A_BROWSER}`);
  const fonts = coreFontsOnly();
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    ...(fonts ? { env: { ...process.env, FONTCONFIG_FILE: fonts } } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // Date and time fields follow the page's lang (the app's language), not the machine's locale, as
      // the desktop window does: otherwise the Czech screens would show US dates in their inputs.
      '--enable-blink-features=LangAttributeAwareFormControlUI',
    ],
  });
}

/** Collects what the page reports as errors (console errors, uncaught exceptions, failed requests). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return errors;
}
