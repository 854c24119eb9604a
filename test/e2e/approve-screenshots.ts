/**
 * `npm run approve-screenshots [-- <name>...]`: makes screenshots of the last browser test run the
 * approved images of their screens (approved.ts), after a change to a screen that is meant. With names,
 * those; without, every approved screen whose screenshot no longer matches its approved image (or has
 * none yet). Only screens in APPROVED_SCREENS, and only on a machine that renders as CI does (Debian's
 * Chromium, fonts-dejavu-core): an image made otherwise would fail there. The browser's `chromium --version`
 * is recorded with them (approved.ts, APPROVED_BY_FILE). Look at each image first; the approved images are
 * committed with the change that made them.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { debianChromiumVersion, notAsInCi } from '../support/browser';
import { APPROVED_BY_FILE, APPROVED_DIR, APPROVED_SCREENS, approvedFile, differenceFromApproved, screenshotFile } from './approved';

function main(names: string[]): number {
  const otherwise = notAsInCi();
  if (otherwise !== null) {
    console.error(`Not approved: approved images are made as CI renders pages, and here ${otherwise}.`);
    return 1;
  }
  const unknown = names.filter((n) => !APPROVED_SCREENS.includes(n));
  if (unknown.length > 0) {
    console.error(`Not screens compared with approved images: ${unknown.join(', ')}. Those are: ${APPROVED_SCREENS.join(', ')}.`);
    return 1;
  }
  const missing = (names.length > 0 ? names : APPROVED_SCREENS).filter((n) => !existsSync(screenshotFile(n)));
  if (names.length > 0 && missing.length > 0) {
    console.error(`No screenshot of ${missing.join(', ')}: run the browser test that takes it first (npx vitest run test/e2e).`);
    return 1;
  }
  const chosen = names.length > 0 ? names : APPROVED_SCREENS.filter((n) => !missing.includes(n) && differenceFromApproved(n) !== null);
  mkdirSync(APPROVED_DIR, { recursive: true });
  for (const name of chosen) {
    const why = differenceFromApproved(name) ?? 'it matched already';
    copyFileSync(screenshotFile(name), approvedFile(name));
    console.log(`Approved ${relative(process.cwd(), approvedFile(name))} (${why.split('. ')[0]}).`);
  }
  // The screens not chosen match their screenshots of this browser too (or were named away on purpose).
  writeFileSync(APPROVED_BY_FILE, `${debianChromiumVersion()}\n`);
  if (chosen.length === 0) console.log('Every approved screen matches its screenshot: nothing to approve.');
  if (names.length === 0 && missing.length > 0) console.log(`No screenshot (not approved): ${missing.join(', ')}.`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
