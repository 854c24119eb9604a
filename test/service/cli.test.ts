/** The service's command line, run as a separate process the way an operator runs it. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SoapClient } from '../../src-main/core/soap-client';
import { TEST_HASH_PARAMS, createDemoData, silentLogger, startService } from '../../src-service';
import { describeBackends, freshDatabase, takesEffect } from '../support/backends';
import { makeCertificate, opensslFor } from '../support/certificates';
import { call } from '../support/http';
import { SERVICE_CLI as CLI, serviceCli, type CliResult } from '../support/service-cli';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = serviceCli;
type Run = CliResult;

/** A failure: exit 1 and exactly one line on stderr. */
function expectFailure(run: Run, reason: string | RegExp) {
  expect(run.code).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(typeof reason === 'string' ? new RegExp(`^error: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : reason);
}

describe('help and arguments', () => {
  it("--help lists the commands; a command's --help its options", async () => {
    const [all, serve] = await Promise.all([cli(['--help']), cli(['serve', '--help'])]);
    expect(all.code).toBe(0);
    for (const c of ['serve', 'demo', 'add-client', 'add-user', 'passwd', 'share', 'add-template', 'migrate']) {
      expect(all.stdout).toContain(`  ${c} `);
    }
    expect(serve.code).toBe(0);
    for (const o of [
      '--data',
      '--store',
      '--pool-size',
      '--port',
      '--host',
      '--namespace',
      '--time-zone',
      '--tls-cert',
      '--tls-key',
      '--connections-per-address',
      '--trusted-proxies',
    ]) {
      expect(serve.stdout).toContain(o);
    }
  });

  it('refuses bad arguments with a one-line reason', async () => {
    const file = join(dir, 'args.sqlite');
    const runs = await Promise.all([
      cli(['frobnicate']),
      cli(['demo']),
      cli(['demo', '--data', file, '--colour', 'red']),
      cli(['demo', '--data']),
      cli(['demo', '--data', file, '--data', file]),
      cli(['serve', '--data', file, '--port', 'eighty']),
      cli(['serve', '--data', file, '--port', '70000']),
      cli(['serve', '--data', file, '--namespace', 'not a uri']),
      cli(['serve', '--data', file, '--time-zone', 'Mars/Olympus']),
      cli(['serve', '--data', join(dir, 'missing', 'dir', 'x.sqlite')]),
      cli(['share', '--data', file, '--account', '1', '--login', 'x', '--permission', 'admin']),
      cli(['add-template', '--data', file, '--login', 'x', '--account', '1', '--type', 'expense', '--amount', '1e3']),
      cli(['add-user', '--data', file, '--login', 'x', '--currency', 'XXX']),
      cli(['extra', 'words']),
      cli(['demo', '--store', 'postgres://jana:secret@127.0.0.1:5432/books']),
      cli(['demo', '--store', 'postgres://jana@127.0.0.1/books?password=secret']),
      cli(['demo', '--data', file, '--store', 'postgres://jana@127.0.0.1/books']),
      cli(['demo', '--store', 'mysql://jana@127.0.0.1/books']),
      cli(['demo'], { BOOKKEEPING_DATABASE_URL: 'books.sqlite' }),
      cli(['migrate', '--from', file]),
      cli(['migrate', '--from', file, '--to', 'postgresql://jana:secret@db.example/books']),
      cli(['serve', '--data', file, '--connections-per-address', '0']),
      cli(['serve', '--data', file, '--trusted-proxies', '127.0.0.1,10.0.0.0/33']),
    ]);
    expectFailure(runs[0], 'Unknown command "frobnicate"; see --help.');
    expectFailure(runs[1], 'Option --data is required (or --store, or BOOKKEEPING_DATABASE_URL).');
    expectFailure(runs[2], 'Unknown option --colour.');
    expectFailure(runs[3], 'Option --data needs a value.');
    expectFailure(runs[4], 'Option --data is given more than once.');
    expectFailure(runs[5], '--port must be a whole number.');
    expectFailure(runs[6], '--port must be from 0 to 65535.');
    expectFailure(runs[7], 'The namespace must be an absolute URI such as http://tempuri.org/.');
    expectFailure(runs[8], 'Unknown time zone "Mars/Olympus"; use an IANA name such as Europe/Prague.');
    expectFailure(runs[9], /^error: Cannot open the data file: /);
    expectFailure(runs[10], '--permission must be one of read (1), write (2), owner (3).');
    expectFailure(runs[11], '--amount must be a decimal number of at most 15 digits, such as -1520.50.');
    expectFailure(runs[12], '--currency "XXX" is not an ISO 4217 currency this service knows.');
    expectFailure(runs[13], 'Unknown command "extra"; see --help.');
    // A database password in the arguments would be in the shell's history and the process list.
    const passwordWays = 'give it in BOOKKEEPING_DATABASE_URL, PGPASSWORD or a password file (~/.pgpass, or PGPASSFILE).';
    expectFailure(runs[14], `A password in --store ends up in the shell history and the process list: ${passwordWays}`);
    expectFailure(runs[15], `A password in --store ends up in the shell history and the process list: ${passwordWays}`);
    expectFailure(runs[16], 'Give --data or --store, not both.');
    expectFailure(runs[17], '--store must be a PostgreSQL connection string (postgres://user@host:5432/database).');
    expectFailure(
      runs[18],
      'BOOKKEEPING_DATABASE_URL must be a PostgreSQL connection string (postgres://user:password@host:5432/database).',
    );
    expectFailure(runs[19], 'Option --to is required (or BOOKKEEPING_DATABASE_URL).');
    expectFailure(runs[20], `A password in --to ends up in the shell history and the process list: ${passwordWays}`);
    expectFailure(runs[21], '--connections-per-address must be from 1 to 1024.');
    expectFailure(
      runs[22],
      '--trusted-proxies: "10.0.0.0/33" is not an address or a CIDR block (such as 10.0.0.7, 10.0.0.0/8 or fd00::/8).',
    );
  });
});

describeBackends(import.meta.url, (backend) =>
  describe('operator commands', () => {
    it('demo, add-client, add-user, passwd, share, add-template, disable-client: each does what it says', async () => {
      const file = join(dir, 'ops.sqlite');
      // The same commands on a data file or, with --store, on a PostgreSQL database.
      const url = backend === 'postgres' ? await freshDatabase() : '';
      const at = backend === 'sqlite' ? ['--data', file] : ['--store', url];
      const keyFile = join(dir, 'desktop-1.key');
      writeFileSync(keyFile, 'desktop-1\n');
      const demo = await cli(['demo', ...at]);
      expect(demo.code).toBe(0);
      expect(demo.stdout).toMatch(
        /^Demo data created: client key demo, users demo\/demo and demo2\/demo2, \d+ transactions, \d+ refuelings\.\n$/,
      );

      // Independent commands run side by side (SQLite serialises their writes).
      const [again, client, generated, user, noPassword] = await Promise.all([
        cli(['demo', ...at]),
        cli(['add-client', ...at, '--label', "Jana's laptop"], { BOOKKEEPING_CLIENT_KEY: 'desktop-1' }),
        cli(['add-client', ...at]),
        cli(['add-user', ...at, '--login', 'jana', '--currency', 'EUR'], { BOOKKEEPING_PASSWORD: 'jana-pw' }),
        cli(['add-user', ...at, '--login', 'petr']),
      ]);
      expectFailure(again, 'The demo data is there already.');
      expect([client.code, client.stdout]).toEqual([0, 'Client key registered.\n']);
      expect(generated.stdout).toMatch(/^Client key registered: [A-Za-z0-9_-]{24}\n$/);
      expect(user.stdout).toMatch(/^User jana created with id \d+\.\n$/);
      expectFailure(noPassword, 'Set BOOKKEEPING_PASSWORD or run on a terminal to be asked for the password.');

      const [dupClient, dupUser, share, shareMissing, template, badAmount, notHers, passwdNobody] = await Promise.all([
        cli(['add-client', ...at, '--key-file', keyFile]),
        cli(['add-user', ...at, '--login', 'JANA'], { BOOKKEEPING_PASSWORD: 'x' }),
        // demo's first account, shared with jana for writing.
        cli(['share', ...at, '--account', '1', '--login', 'jana', '--permission', 'write']),
        cli(['share', ...at, '--account', '999', '--login', 'jana', '--permission', '1']),
        cli([
          'add-template',
          ...at,
          '--login',
          'demo',
          '--account',
          '1',
          '--type',
          'expense',
          '--amount',
          '-120.50',
          '--description',
          'Coffee',
          '--ord',
          '9',
        ]),
        cli(['add-template', ...at, '--login', 'demo', '--account', '1', '--type', '2', '--amount', '-1.005']),
        cli(['add-template', ...at, '--login', 'jana', '--account', '2', '--type', '2', '--amount', '1']),
        cli(['passwd', ...at, '--login', 'nobody'], { BOOKKEEPING_PASSWORD: 'x' }),
      ]);
      expectFailure(dupClient, 'That client key is already registered.');
      expectFailure(dupUser, 'A user with login "JANA" already exists.');
      expect(share.stdout).toBe('Account 1 shared with jana (permission 2).\n');
      expectFailure(shareMissing, 'Account 999 does not exist.');
      expect(template.stdout).toMatch(/^Template \d+ added\.\n$/);
      expectFailure(badAmount, 'amount -1.005 has more decimal places than CZK allows (2).');
      expectFailure(notHers, 'accountId: account 2 does not exist.');
      expectFailure(passwdNobody, 'There is no user with login "nobody".');
      // A key in the arguments would be in the shell's history and the process list.
      const keyWays = 'give it in BOOKKEEPING_CLIENT_KEY or in a file with --key-file <file>.';
      expectFailure(
        await cli(['add-client', ...at, '--key', 'desktop-2']),
        `A client key on the command line ends up in the shell history and the process list: ${keyWays}`,
      );
      expectFailure(
        await cli(['disable-client', ...at, '--key', 'desktop-1']),
        `A client key on the command line ends up in the shell history and the process list: ${keyWays}`,
      );
      expectFailure(
        await cli(['disable-client', ...at]),
        'Give the client key in BOOKKEEPING_CLIENT_KEY or in a file with --key-file <file>.',
      );
      expectFailure(
        await cli(['disable-client', ...at, '--key-file', join(dir, 'nowhere')]),
        `--key-file ${join(dir, 'nowhere')}: no such file.`,
      );

      const service = await startService({
        ...(backend === 'sqlite' ? { dataFile: file } : { databaseUrl: url }),
        port: 0,
        logger: silentLogger,
      });
      const target = { url: service.url, namespace: service.namespace };
      const jana = { clientKey: 'desktop-1', login: 'jana', password: 'jana-pw' };
      const demoUser = { clientKey: 'demo', login: 'demo', password: 'demo' };
      try {
        expect((await call(target, 'soap12', 'AccountList2', jana, {})).map((a) => [a.Id, a.UserAccountPermission])).toEqual([[1, 2]]);
        expect(
          (await call(target, 'soap12', 'DefineTransactionList2', demoUser, {})).filter((t) => t.Description === 'Coffee'),
        ).toMatchObject([{ Id_Account: 1, Type: 2, Amount: -120.5, Ord: 9, Id_Category: 0 }]);
        const passwd = await cli(['passwd', ...at, '--login', 'jana'], { BOOKKEEPING_PASSWORD: 'jana-new' });
        expect(passwd.stdout).toBe('Password of jana changed.\n');
        await takesEffect(backend, () => expect(call(target, 'soap12', 'AccountList2', jana, {})).rejects.toThrow('Invalid credentials'));
        expect(await call(target, 'soap12', 'AccountList2', { ...jana, password: 'jana-new' }, {})).toHaveLength(1);
        expect((await cli(['disable-client', ...at, '--key-file', keyFile])).stdout).toBe('Client key disabled.\n');
        await takesEffect(backend, () =>
          expect(call(target, 'soap12', 'AccountList2', { ...jana, password: 'jana-new' }, {})).rejects.toThrow('Invalid credentials'),
        );
      } finally {
        await service.close();
      }
    });
  }),
);

describe('serve', () => {
  it('prints one line with its address when ready, serves, and stops on SIGTERM', async () => {
    const file = join(dir, 'serve.sqlite');
    createDemoData(file, { hashParams: TEST_HASH_PARAMS });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'serve', '--data', file, '--port', '0', '--namespace', 'urn:books', '--time-zone', 'UTC'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c;
        if (stdout.includes('\n')) resolve(stdout);
      });
      child.on('close', () => reject(new Error(`serve ended: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      expect(line).toMatch(/^Bookkeeping service listening on http:\/\/127\.0\.0\.1:\d+\/API\/APIservice\.asmx\n$/);
      const url = line.trim().split(' ').pop()!.replace('/API/APIservice.asmx', '');
      const accounts = await call(
        { url, namespace: 'urn:books' },
        'soap11',
        'AccountListWithAmount2',
        { clientKey: 'demo', login: 'demo', password: 'demo' },
        {},
      );
      expect(accounts.length).toBeGreaterThan(4);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });

  it('fails with one line when the port is taken', async () => {
    const file = join(dir, 'taken.sqlite');
    const holder = await startService({ dataFile: file, port: 0, logger: silentLogger });
    try {
      expectFailure(await cli(['serve', '--data', file, '--port', String(holder.port)]), 'The port is already in use.');
    } finally {
      await holder.close();
    }
  });
});

describe.skipIf(!opensslFor(import.meta.url))('serve over TLS', () => {
  it('serves HTTPS with --tls-cert and --tls-key; a missing, non-PEM or mismatched pair is one clear line', async () => {
    const first = makeCertificate(dir, { name: 'serve-first' });
    const second = makeCertificate(dir, { name: 'serve-second' });
    const file = join(dir, 'tls.sqlite');
    createDemoData(file, { hashParams: TEST_HASH_PARAMS });
    const runs = await Promise.all([
      cli(['serve', '--data', file, '--tls-cert', first.certFile]),
      cli(['serve', '--data', file, '--tls-cert', join(dir, 'nowhere.pem'), '--tls-key', first.keyFile]),
      cli(['serve', '--data', file, '--tls-cert', first.keyFile, '--tls-key', first.keyFile]),
      cli(['serve', '--data', file, '--tls-cert', first.certFile, '--tls-key', second.keyFile]),
    ]);
    expectFailure(runs[0], '--tls-cert and --tls-key go together: the certificate and its private key.');
    expectFailure(runs[1], `--tls-cert ${join(dir, 'nowhere.pem')}: no such file.`);
    expectFailure(runs[2], `--tls-cert ${first.keyFile} is not a PEM file (no "-----BEGIN" line of the right kind).`);
    expectFailure(runs[3], /^error: The certificate and key cannot be used together: .*key values mismatch/);

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'serve', '--data', file, '--port', '0', '--tls-cert', first.certFile, '--tls-key', first.keyFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const line = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c;
          if (out.includes('\n')) resolve(out.trim());
        });
      });
      expect(line).toMatch(/^Bookkeeping service listening on https:\/\/127\.0\.0\.1:\d+\/API\/APIservice\.asmx$/);
      const base = line.split(' ').pop()!.replace('/API/APIservice.asmx', '');
      const client = new SoapClient({
        baseUrl: base,
        namespace: 'http://tempuri.org/',
        credentials: { clientKey: 'demo', login: 'demo', password: 'demo' },
        trustedCertificate: first.fingerprint,
      });
      try {
        expect((await client.listAccounts()).length).toBeGreaterThan(4);
      } finally {
        client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
