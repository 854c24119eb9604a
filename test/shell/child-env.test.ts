/** What the app's child processes are given: this process's environment without the app's secrets. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, SECRET_ENV_NAMES } from '../../src-main/app-bridge/child-env';
import { CLIENT_KEY_ENV, PASSWORD_ENV } from '../../src-main/core/secrets/prompt-secret-store';
import { PASSWORD_ENV as SERVICE_PASSWORD_ENV } from '../../src-service/cli/password';
import { DATABASE_URL_ENV } from '../../src-service/cli/store';

const ROOT = join(import.meta.dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs|js)$/.test(f))
    .map((f) => join(ROOT, dir, f));
}

describe('childEnv', () => {
  it('leaves out every secret the app and the service read, whatever the case of its name', () => {
    expect(SECRET_ENV_NAMES).toEqual(
      expect.arrayContaining([PASSWORD_ENV, CLIENT_KEY_ENV, DATABASE_URL_ENV, SERVICE_PASSWORD_ENV, 'PGPASSWORD']),
    );
    const env = {
      BOOKKEEPING_PASSWORD: 'pw',
      BOOKKEEPING_CLIENT_KEY: 'key',
      BOOKKEEPING_DATABASE_URL: 'postgres://u:secret@db/books',
      PGPASSWORD: 'pg',
      Bookkeeping_Password: 'windows spelling',
      PATH: '/usr/bin',
      HOME: '/home/owner',
      BOOKKEEPING_DATA: '/home/owner/local.sqlite',
      HTTPS_PROXY: 'http://proxy:3128',
    };
    expect(childEnv(env)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/owner',
      BOOKKEEPING_DATA: '/home/owner/local.sqlite',
      HTTPS_PROXY: 'http://proxy:3128',
    });
    expect(env.BOOKKEEPING_PASSWORD).toBe('pw');
  });

  it('lays extra variables over the environment, never letting a secret back in', () => {
    expect(childEnv({ PATH: '/bin', A: '1' }, { A: '2', PGPASSWORD: 'x' })).toEqual({ PATH: '/bin', A: '2' });
  });

  it('is the environment of every child the app starts (each file that spawns uses it)', () => {
    const spawning = [...sourcesUnder('src-main'), ...sourcesUnder('scripts')].filter((f) =>
      /from 'node:child_process'/.test(readFileSync(f, 'utf8')),
    );
    expect(spawning.length).toBeGreaterThan(1);
    for (const file of spawning) expect(readFileSync(file, 'utf8'), relative(ROOT, file)).toMatch(/\bchildEnv\(/);
  });
});
