/** The app's version, from package.json at the project's root (the command line and browser shell run from it). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function appVersion(root: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
