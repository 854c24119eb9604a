/**
 * Screenshots compared with approved images, for the screens whose content is fixed: no data from the
 * clock, data from a seed, nothing moving (screenshots are taken with animations finished, the caret
 * hidden). The others are checked for what they must show (stack.ts, screenshot()).
 *
 * An approved image is made as CI makes it: Debian's Chromium with the fonts of fonts-dejavu-core alone
 * (test/support/browser.ts, notAsInCi()); where a browser test runs otherwise, the comparison is skipped
 * outside CI and a failure in CI. The Chromium that made them is recorded beside them (APPROVED_BY_FILE):
 * outside CI another one (an update, another Debian release) skips the comparison too, as it may smooth
 * text otherwise; CI compares whatever its Chromium, and a failure there names both. A screen that changes on purpose is approved again with
 * `npm run approve-screenshots -- <name>...` after a run of its test (test/e2e/approve-screenshots.ts);
 * look at the image first, and at `<name>.diff.png` beside it when the comparison failed.
 *
 * The tolerance: pixelmatch compares each pixel by its perceived colour distance (PIXEL_THRESHOLD: a
 * shade off passes), and MAX_DIFF_PIXELS pixels may differ beyond it. Anti-aliased pixels count, because
 * a change of text is mostly in them: the accent dropped from one word of the register ("Přejít" as
 * "Přejit") changes 12 pixels, 2 of them not anti-aliased. So the same page renders here identically run
 * after run (0 pixels), a dropped accent fails, and a Chromium that smooths text differently needs the
 * images approved again (on Debian's, as CI has it).
 *
 * No vitest here: the approve script imports it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

const ROOT = resolve(import.meta.dirname, '../..');
/** Where the screenshots of every screen go (gitignored; named in the README). */
export const SCREENSHOT_DIR = join(ROOT, 'test-output/screenshots');
/** The approved images, kept in the repository. */
export const APPROVED_DIR = join(ROOT, 'test/e2e/approved');

const everyLook = (screen: string) => ['en', 'cs'].flatMap((lang) => ['light', 'dark'].map((theme) => `${screen}-${lang}-${theme}`));

/**
 * The screens compared with approved images: the first run (nothing connected, nothing dated) and the
 * register of the seeded decade (test/support/register-page.ts) of one account and of all. Not the
 * register's detail: it says when the transfer was queued, by the clock.
 */
export const APPROVED_SCREENS: readonly string[] = [...everyLook('first-run'), ...everyLook('register'), ...everyLook('register-all')];

export const PIXEL_THRESHOLD = 0.1;
export const MAX_DIFF_PIXELS = 6;

/** The `chromium --version` of the browser that made the approved images (approve-screenshots.ts writes it). */
export const APPROVED_BY_FILE = join(APPROVED_DIR, 'chromium-version.txt');

/** The Chromium that made the approved images, or null when none is recorded. */
export function approvedBy(): string | null {
  return existsSync(APPROVED_BY_FILE) ? readFileSync(APPROVED_BY_FILE, 'utf8').trim() : null;
}

export const screenshotFile = (name: string) => join(SCREENSHOT_DIR, `${name}.png`);
export const approvedFile = (name: string) => join(APPROVED_DIR, `${name}.png`);
export const diffFile = (name: string) => join(SCREENSHOT_DIR, `${name}.diff.png`);

/**
 * Compares the screenshot `name` (its file in SCREENSHOT_DIR) with its approved image: null when they
 * match within the tolerance; else what differs, with the differing pixels drawn into diffFile(name).
 */
export function differenceFromApproved(name: string): string | null {
  rmSync(diffFile(name), { force: true });
  const how = `If the change is meant, look at ${screenshotFile(name)} and approve it: npm run approve-screenshots -- ${name}`;
  if (!existsSync(approvedFile(name))) return `${name} has no approved image (${approvedFile(name)}). ${how}`;
  const approved = PNG.sync.read(readFileSync(approvedFile(name)));
  const actual = PNG.sync.read(readFileSync(screenshotFile(name)));
  if (approved.width !== actual.width || approved.height !== actual.height) {
    return `${name} is ${actual.width}x${actual.height}, its approved image ${approved.width}x${approved.height}. ${how}`;
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differing = pixelmatch(approved.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
    includeAA: true,
  });
  if (differing <= MAX_DIFF_PIXELS) return null;
  writeFileSync(diffFile(name), PNG.sync.write(diff));
  return `${name} differs from its approved image in ${differing} pixels (at most ${MAX_DIFF_PIXELS} may): see ${diffFile(name)}. ${how}`;
}
