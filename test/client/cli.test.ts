/**
 * The headless command line against the real service: every command, --json output, argument checks,
 * exit codes with one line on stderr, and secrets that are never stored in plain text.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/cli';
import { WRITE_KINDS } from '../../src-main/core/write-kinds';
import type { OutboxEntryDetail, OutboxEntryView } from '../../src-shared/app-api';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';
import { TEST_TIME_ZONE, startTestService, type TestService } from '../support/service';

let service: TestService;
const tmp = tempDir('bookkeeping-cli-');
const data = tmp.file('cli.sqlite');

beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const cli = (
  args: string[],
  env: Record<string, string> = { BOOKKEEPING_PASSWORD: 'demo' },
  prompt?: (q: string) => Promise<string | null>,
) => runCliOn(data, args, { env, ...(prompt ? { prompt } : {}) });

describe('command line', () => {
  it('connects, syncs and lists everything', async () => {
    // A key on the command line is refused (shell history, process list); a key file is read.
    expectCliFailure(
      await cli(['connect', '--url', service.url, '--key', 'demo', '--login', 'demo']),
      /A client key on the command line ends up in the shell history/,
    );
    const keyFile = tmp.file('client-key.txt');
    writeFileSync(keyFile, 'demo\n');
    const connected = await cli(['connect', '--url', service.url, '--key-file', keyFile, '--login', 'demo', '--json']);
    expect(connected.code).toBe(0);
    expect(connected.json()).toMatchObject({ configured: true, connection: { login: 'demo', hasSecrets: true } });
    expect((await cli(['car', 'add', '1', 'Octavia'])).out).toMatch(/Octavia/);
    // The client key is kept sealed: the next runs need only the password.
    const synced = await cli(['sync', '--json']);
    expect(synced.code).toBe(0);
    expect(synced.json()).toMatchObject({ error: null, pulled: { accounts: 7 } });

    const accounts = await cli(['accounts', '--json']);
    expect(accounts.json().accounts.length).toBeGreaterThan(3);
    expect((await cli(['accounts', '--all'])).out).toMatch(/Starý účet .*inactive,locked/);
    expect((await cli(['accounts'])).out).toMatch(/^Total: CZK /m);
    const wallet = accounts.json().accounts[0].id;
    const page = (await cli(['transactions', String(wallet), '--limit', '3', '--json'])).json();
    expect(page).toMatchObject({ offset: 0, limit: 3 });
    expect(page.items).toHaveLength(3);
    expect((await cli(['transactions', String(wallet), '--search', 'potravin'])).out).toMatch(/Nákup potravin/);
    // The register's search: accents and case folded, the same rows either way.
    const folded = (await cli(['transactions', String(wallet), '--search', 'NAKUP POTRAVIN', '--json'])).json();
    expect(folded.items.length).toBeGreaterThan(0);
    expect(folded.items.every((t: { description: string }) => /Nákup potravin/.test(t.description))).toBe(true);
    expect((await cli(['transactions', String(wallet), '--search', 'nákup potravin', '--json'])).json()).toEqual(folded);
    expect((await cli(['categories'])).out).toMatch(/Bydlení\s+\[\d+\]\n\s+Nájem/);
    expect((await cli(['templates', '--json'])).json().length).toBeGreaterThan(0);
    expect((await cli(['cars', '--json'])).json()[0]).toMatchObject({ carId: 1, name: 'Octavia' });
    expect((await cli(['refuelings', '1', '--json'])).json().length).toBeGreaterThan(0);
    expect((await cli(['status'])).out).toMatch(/Connected to .* as demo/);
  });

  it('queues every kind of write, lists, retries and discards them, and syncs them', async () => {
    const ok = async (args: string[]) => {
      const r = await cli([...args, '--json']);
      expect(r.code, r.err).toBe(0);
      return r.json();
    };
    const account = await ok([
      'add-account',
      '--name',
      'CLI account',
      '--currency',
      '203',
      '--type',
      '1',
      '--description',
      'from the shell',
    ]);
    expect(account.id).toBeLessThan(0);
    await ok(['edit-account', String(account.id), '--ord', '4', '--hidden', 'false']);
    await ok([
      'transfer',
      '--from',
      '1',
      '--to',
      String(account.id),
      '--amount',
      '12.5',
      '--date',
      '2026-08-01T10:00',
      '--description',
      'cli',
    ]);
    const top = await ok(['add-category', 'CLI top']);
    await ok(['add-category', 'CLI child', '--parent', String(top.id)]);
    await ok(['rename-category', String(top.id), 'CLI top renamed']);
    const fuel = await ok([
      'refuel',
      '--car',
      '1',
      '--liter',
      '30.5',
      '--price',
      '1200',
      '--tachometer',
      '150000',
      '--date',
      '2026-08-02T10:00',
    ]);
    await ok(['edit-refuel', String(fuel.id), '--price', '1250.5']);
    const outbox = await ok(['outbox']);
    expect(outbox.map((e: { kind: string }) => e.kind)).toEqual([
      'addAccount',
      'editAccount',
      'transfer',
      'addCategory',
      'addCategory',
      'renameCategory',
      'addRefueling',
      'editRefueling',
    ]);
    expect((await cli(['outbox'])).out).toMatch(/addAccount\s+pending/);
    // `outbox show` of every kind of write: an edit's fields (its kind's, from the record's table) with a base, a create's values.
    for (const e of outbox as OutboxEntryView[]) {
      const shown = (await ok(['outbox', 'show', String(e.id)])) as OutboxEntryDetail;
      expect(shown.entry).toEqual(e);
      const edit = WRITE_KINDS[e.kind].edit;
      const input = e.input as unknown as Record<string, unknown>;
      if (edit) expect(shown.fields.map((f) => f.field)).toEqual(edit.fields);
      else expect(shown.fields.map((f) => f.field).length).toBeGreaterThan(0);
      for (const f of shown.fields) {
        expect(f.mine).toEqual(input[f.field]);
        expect(f.conflict).toBe(false);
        if (!edit) expect([f.base, f.theirs]).toEqual([null, null]);
      }
      if (edit) expect(shown.fields.every((f) => f.base !== null)).toBe(true);
      const text = await cli(['outbox', 'show', String(e.id)]);
      expect(text.out).toMatch(new RegExp(`^Outbox entry ${e.id}: ${e.kind}[ ,].*pending`));
      expect(text.out).toMatch(/^FIELD +BASE +MINE +THEIRS$/m);
      expect(text.out).toMatch(edit ? /^BASE is the value when the edit began/m : /^A new record: it has no base/m);
    }
    const extra = await ok(['add-category', 'To discard']);
    expect((await cli(['outbox', 'discard', String(extra.outboxId)])).out).toMatch(/discarded/);
    expect((await cli(['outbox', 'retry', String(outbox[0].id)])).code).toBe(0);

    const summary = await ok(['sync']);
    expect(summary).toMatchObject({ pushed: 8, refused: 0, error: null });
    expect(await ok(['outbox'])).toEqual([]);
    const accounts = (await ok(['accounts', '--all'])).accounts;
    expect(accounts.find((a: { name: string }) => a.name === 'CLI account')).toMatchObject({ balance: '12.5', ord: 4, local: false });
    expect((await ok(['refuelings', '1'])).find((r: { tachometer: number }) => r.tachometer === 150000)).toMatchObject({
      price: '1250.5',
      liter: '30.5',
      pending: false,
    });
  });

  it('checks arguments and fails with exit code 1 and one line', async () => {
    expectCliFailure(await cli(['bogus']), /Unknown command "bogus"/);
    expectCliFailure(await cli(['transactions']), /account id is required/);
    expectCliFailure(await cli(['transactions', 'abc']), /must be a whole number/);
    expectCliFailure(await cli(['accounts', '--nope']), /Unknown option --nope/);
    expectCliFailure(await cli(['accounts', 'extra']), /Unexpected argument "extra"/);
    expectCliFailure(await cli(['transfer', '--from', '1', '--to', '5', '--amount', '1']), /a transfer needs one currency/);
    expectCliFailure(await cli(['transfer', '--from', '1', '--to', '2', '--amount', 'ten']), /amount must be a decimal number/);
    expectCliFailure(await cli(['add-account', '--name', 'x', '--currency', '203']), /--type is required/);
    expectCliFailure(await cli(['edit-account', '424242']), /Account 424242 does not exist/);
    expectCliFailure(await cli(['car', 'fly', '1']), /Unknown car action/);
    expectCliFailure(await cli(['outbox', 'retry', '999']), /does not exist/);
    const k = { BOOKKEEPING_PASSWORD: 'demo', BOOKKEEPING_CLIENT_KEY: 'k' };
    expectCliFailure(await cli(['connect', '--url', 'nope', '--login', 'l'], k), /full URL/);
    expectCliFailure(await cli(['connect', '--url', 'ftp://example.com', '--login', 'l'], k), /http:\/\/ or https:\/\//);
    expectCliFailure(
      await cli(['connect', '--url', service.url, '--login', 'l', '--key-file', tmp.file('nowhere')], k),
      /--key-file .*: no such file\./,
    );
    // Plain http to another machine: warned before the credentials go out (it then fails to connect here).
    const remote = await cli(['connect', '--url', 'http://example.invalid:9', '--login', 'l'], {
      BOOKKEEPING_PASSWORD: 'x',
      BOOKKEEPING_CLIENT_KEY: 'k',
    });
    expect(remote.err).toMatch(/^warning: .*unencrypted/);
    const noData = await runCli(['accounts'], {
      stdout: () => undefined,
      stderr: (t) => expect(t).toMatch(/--data <local.sqlite> is required/),
      env: {},
    });
    expect(noData).toBe(1);
    // A wrong password: the sync fails with the reason, the summary still printed.
    expectCliFailure(
      await cli(['sync'], { BOOKKEEPING_PASSWORD: 'wrong', BOOKKEEPING_CLIENT_KEY: 'demo' }),
      /refused the client key, login or password/,
    );
    // Without the key given, a wrong password cannot even open the kept client key.
    expectCliFailure(await cli(['sync'], { BOOKKEEPING_PASSWORD: 'wrong' }), /does not open with this password/);
    // No password and nobody to ask.
    expectCliFailure(await cli(['sync'], {}, async () => null), /BOOKKEEPING_PASSWORD/);
    // Reads need no password at all.
    expect(
      (
        await cli(['accounts'], {}, async () => {
          throw new Error('must not prompt');
        })
      ).code,
    ).toBe(0);
  });

  it('has help for every command', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'connect',
      'sync',
      'accounts',
      'transactions',
      'categories',
      'templates',
      'cars',
      'car add',
      'refuelings',
      'add-account',
      'edit-account',
      'transfer',
      'add-category',
      'rename-category',
      'refuel',
      'edit-refuel',
      'outbox',
    ]) {
      expect(help.out).toContain(`  ${command}`);
    }
    expect(help.out).toContain('outbox retry <id> | outbox discard <id>');
    expect((await cli(['transfer', '--help'])).out).toMatch(/^Usage: npm run cli -- transfer --from/);
  });

  it('runs as a process: exit codes, one line on stderr, the password read from a pipe, nothing secret on disk', async () => {
    const root = join(import.meta.dirname, '../..');
    // Not spawnSync: the service under test runs in this process and must keep answering.
    const run = (args: string[], input = '') =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/cli/main.ts'), ...args, '--data', data], {
          cwd: root,
          env: { ...process.env, BOOKKEEPING_PASSWORD: '', TZ: TEST_TIME_ZONE },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c) => (stdout += c));
        child.stderr.on('data', (c) => (stderr += c));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
        child.stdin.end(input);
      });
    const ok = await run(['sync', '--json'], 'demo\n');
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ error: null });
    const bad = await run(['transactions', 'x']);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual(['error: The account id must be a whole number, not "x".']);
    // Every file, the safety copies beside the data file included.
    const bytes = (readdirSync(tmp.dir, { recursive: true }) as string[])
      .filter((f) => statSync(join(tmp.dir, f)).isFile())
      .map((f) => readFileSync(join(tmp.dir, f)).toString('latin1'))
      .join('');
    expect(bytes).not.toMatch(/"password"|demo-password/);
    expect(bytes).toContain('sealed:clientKey');
  });
});
