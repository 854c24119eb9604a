/**
 * `npm run web -- --open`: the browser is given a page of the owner's alone, never an address with the
 * key; the page's one-time ticket opens one session, then the page is gone; and a process without the
 * key (another local user, when the tests run as root) gets nothing from the shell.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateBase } from '../../src-main/web-shell/handover';
import { openerCommand, openInBrowser, type Opener } from '../../src-main/web-shell/open-browser';
import { startTestApp, type TestApp } from '../support/app';
import { until, untilPasses } from '../support/until';

const ROOT = join(import.meta.dirname, '..', '..');
const POSIX = process.platform !== 'win32';
const SECRETS = {
  BOOKKEEPING_PASSWORD: 'pw-secret',
  BOOKKEEPING_CLIENT_KEY: 'client-secret',
  BOOKKEEPING_DATABASE_URL: 'postgres://u:db-secret@h/b',
  PGPASSWORD: 'pg-secret',
};

let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startTestApp();
  base = mkdtempSync(join(tmpdir(), 'bookkeeping-open-test-'));
  // Another user must be able to reach the page's folder's parent, as /tmp allows, to be refused by the page's own modes.
  chmodSync(base, 0o755);
});
afterAll(async () => {
  await app?.close();
  rmSync(base, { recursive: true, force: true });
});

interface Run {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** An opener that starts nothing: it records what it would run and answers `ok`. */
function recorder(ok = true): { opener: Opener; runs: Run[] } {
  const runs: Run[] = [];
  return { runs, opener: (command, args, env, done) => (runs.push({ command, args, env }), done(ok)) };
}

const ticketOf = (page: string) => /#ticket=([\w-]+)"/.exec(readFileSync(page, 'utf8'))![1]!;

function trade(ticket: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(app.shell.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/handover',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ ticket }));
  });
}

describe('opening the browser', () => {
  it("gives the opener only the path of a page of the owner's alone, and an environment without secrets", () => {
    const { opener, runs } = recorder();
    const opening = openInBrowser(app.shell, { opener, base, env: { ...process.env, ...SECRETS }, platform: 'linux' });
    expect(runs).toHaveLength(1);
    const [{ command, args, env }] = runs as [Run];
    expect(command).toBe('xdg-open');
    expect(args).toEqual([pathToFileURL(opening.page).href]);
    const ticket = ticketOf(opening.page);
    const everything = [command, ...args, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join('\n');
    for (const secret of [app.shell.token, ticket, ...Object.values(SECRETS)]) expect(everything).not.toContain(secret);
    expect(Object.keys(env)).not.toEqual(expect.arrayContaining(['BOOKKEEPING_PASSWORD']));
    expect(env.PATH).toBe(process.env.PATH);
    expect(readFileSync(opening.page, 'utf8')).toContain(`url=${app.shell.origin}/#ticket=${ticket}`);
    expect(readFileSync(opening.page, 'utf8')).not.toContain(app.shell.token);
    if (POSIX) {
      expect(statSync(opening.page).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(opening.page)).mode & 0o777).toBe(0o700);
    }
    expect(dirname(dirname(opening.page))).toBe(base);
  });

  it("opens one session with the page's ticket, then removes the page; a second use fails", async () => {
    const { opener } = recorder();
    const opening = openInBrowser(app.shell, { opener, base });
    const ticket = ticketOf(opening.page);
    const first = await trade(ticket);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ ok: true, value: { token: app.shell.token } });
    expect(await opening.outcome).toBe('used');
    expect(existsSync(opening.page)).toBe(false);
    expect(existsSync(dirname(opening.page))).toBe(false);
    const second = await trade(ticket);
    expect(second.status).toBe(403);
    expect(JSON.parse(second.body)).toMatchObject({ ok: false, error: { code: 'handoverSpent' } });
  });

  it('removes a page nobody came for after a short time, and its ticket opens nothing', async () => {
    const { opener } = recorder();
    const opening = openInBrowser(app.shell, { opener, base, ttlMs: 20 });
    const ticket = ticketOf(opening.page);
    expect(await opening.outcome).toBe('expired');
    expect(existsSync(dirname(opening.page))).toBe(false);
    expect((await trade(ticket)).status).toBe(403);
  });

  it('removes the page at once when no browser could be opened', async () => {
    const { opener } = recorder(false);
    const opening = openInBrowser(app.shell, { opener, base });
    expect(await opening.outcome).toBe('not-opened');
    expect(existsSync(dirname(opening.page))).toBe(false);
  });

  it("opens through the platform's own program, given a file: URL", () => {
    const page = join(tmpdir(), 'a folder', 'open.html');
    const url = pathToFileURL(page).href;
    expect(openerCommand(page, 'linux')).toEqual(['xdg-open', [url]]);
    expect(openerCommand(page, 'darwin')).toEqual(['open', [url]]);
    expect(openerCommand(page, 'win32')).toEqual(['cmd', ['/c', 'start', '""', url]]);
    expect(url).not.toContain(' ');
  });

  it("puts the page in the user's runtime folder where there is one, else in the temporary folder", () => {
    expect(privateBase({ XDG_RUNTIME_DIR: base })).toBe(base);
    expect(privateBase({ XDG_RUNTIME_DIR: join(base, 'missing') })).toBe(tmpdir());
    expect(privateBase({ XDG_RUNTIME_DIR: 'relative' })).toBe(tmpdir());
    expect(privateBase({})).toBe(tmpdir());
  });
});

/** What a process without the key finds out by itself; as another user (nobody) when the tests run as root. */
const OUTSIDER = `
const [origin, page] = process.argv.slice(1);
const fs = require('node:fs');
const found = {};
try { fs.readFileSync(page, 'utf8'); found.page = 'read'; } catch (e) { found.page = e.code; }
const post = (path, body, headers = {}) => fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then((r) => r.status);
(async () => {
  found.pageHtml = await fetch(origin + '/').then((r) => r.text());
  found.api = await post('/api/getStatus', 'null');
  found.apiWrongToken = await post('/api/getStatus', 'null', { 'x-bookkeeping-token': 'A'.repeat(43) });
  found.events = await fetch(origin + '/api/events').then((r) => r.status);
  found.guessedTicket = await post('/handover', JSON.stringify({ ticket: 'B'.repeat(43) }));
  console.log(JSON.stringify(found));
})();
`;

const asRoot = process.getuid?.() === 0;

describe('a process without the key', () => {
  it(`${asRoot ? '(another user) can neither read the handover page nor' : 'cannot'} call the app API`, async () => {
    const { opener } = recorder();
    const opening = openInBrowser(app.shell, { opener, base });
    const child = spawn(process.execPath, ['-e', OUTSIDER, app.shell.origin, opening.page], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '' },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, out).toBe(0);
    const found = JSON.parse(out) as Record<string, unknown>;
    expect(found).toMatchObject({ api: 403, apiWrongToken: 403, events: 403, guessedTicket: 403 });
    expect(found.pageHtml).not.toContain(app.shell.token);
    if (asRoot) expect(found.page).toBe('EACCES');
    // What it tried spent nothing: the owner's browser still opens its session.
    expect((await trade(ticketOf(opening.page))).status).toBe(200);
    expect(await opening.outcome).toBe('used');
  });
});

describe.skipIf(process.platform !== 'linux')('npm run web -- --open', () => {
  it('runs xdg-open with the page only and prints no key; the page is gone once used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-open-run-'));
    try {
      const bin = join(dir, 'bin');
      const runtime = join(dir, 'runtime');
      mkdirSync(bin);
      mkdirSync(runtime, { mode: 0o700 });
      const record = join(dir, 'xdg-open.json');
      // A stand-in for xdg-open that records what it was given: its arguments and its environment.
      writeFileSync(
        join(bin, 'xdg-open'),
        `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), env: process.env }));\n`,
        { mode: 0o755 },
      );
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'src-main/web-shell/main.ts'), '--data', join(dir, 'local.sqlite'), '--open'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            ...SECRETS,
            PATH: `${bin}:${process.env.PATH}`,
            XDG_RUNTIME_DIR: runtime,
            XDG_CONFIG_HOME: join(dir, 'config'),
          },
        },
      );
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await until('the opener to write its record whole', () => existsSync(record) && readFileSync(record, 'utf8').endsWith('}'), {
        deadlineMs: 20_000,
      });
      const { args, env } = JSON.parse(readFileSync(record, 'utf8')) as { args: string[]; env: Record<string, string> };
      expect(args).toHaveLength(1);
      const page = fileURLToPath(args[0]!);
      expect(dirname(dirname(page))).toBe(runtime);
      expect(statSync(page).mode & 0o777).toBe(0o600);
      for (const name of Object.keys(SECRETS)) expect(env[name], name).toBeUndefined();
      const ticket = ticketOf(page);
      const origin = /url=(http:\/\/127\.0\.0\.1:\d+)\//.exec(readFileSync(page, 'utf8'))![1]!;
      await untilPasses('the shell to say it opens the browser', () =>
        expect(out).toContain(`Bookkeeping is opening in your browser (${origin}).`),
      );
      const token = (await (
        await fetch(`${origin}/handover`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ticket }),
        })
      ).json()) as {
        value: { token: string };
      };
      expect(token.value.token).toMatch(/^[\w-]{43}$/);
      expect(out).not.toContain(token.value.token);
      expect(JSON.stringify(args) + JSON.stringify(env)).not.toContain(token.value.token);
      expect(existsSync(page)).toBe(false);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the address with the key, on the owner's terminal only, when no browser could be opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-open-run-'));
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'xdg-open'), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'src-main/web-shell/main.ts'), '--data', join(dir, 'local.sqlite'), '--open'],
        {
          cwd: ROOT,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, XDG_RUNTIME_DIR: dir, XDG_CONFIG_HOME: join(dir, 'config') },
        },
      );
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await expect
        .poll(() => out, { timeout: 60_000, interval: 50 })
        .toMatch(/Could not open a browser; open this address by hand: http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{43}\n/);
      // The page the browser never came for is gone already.
      expect(readdirSync(dir).filter((name) => name.startsWith('bookkeeping-open-'))).toEqual([]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
