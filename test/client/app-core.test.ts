/**
 * The app core as the screens use it: every method of the API table exists and checks its input
 * again; only AppErrors come out (never a stack trace); connection, status, preferences, cars and the
 * read views; events; secrets never in plain text on disk.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src-main/core/app/app-core';
import { EncryptedSecretStore, MemorySecretStore, type StringCipher } from '../../src-main/core/secrets';
import { addClient, addUser, TEST_HASH_PARAMS } from '../../src-service';
import { APP_METHOD_NAMES, AppError, warningText, type AppEvent } from '../../src-shared/app-api';
import { connectDemo, newUser, openCore, tempDir } from '../support/client';
import { englishOf } from '../support/error-words';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('the API table', () => {
  it('implements every method, each refusing malformed input with invalid-input naming the field', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      const api = core as unknown as Record<string, (input?: unknown) => Promise<unknown>>;
      for (const method of APP_METHOD_NAMES) {
        expect(typeof api[method], method).toBe('function');
        const err = await errorOf(api[method]!({ unexpected: 1 }));
        expect(err, method).toBeInstanceOf(AppError);
        expect((err as AppError).kind, method).toBe('invalid-input');
        expect((err as AppError).message, method).not.toMatch(/\n\s+at /);
      }
      expect(await errorOf(core.listTransactions({ accountId: 'x' as never }))).toMatchObject({
        kind: 'invalid-input',
        field: 'accountId',
      });
      expect(await errorOf(core.listTransactions({ accountId: 1, limit: 501 }))).toMatchObject({ kind: 'invalid-input', field: 'limit' });
      expect(await errorOf(core.saveCar({ carId: 0, name: 'x' }))).toMatchObject({ kind: 'invalid-input', field: 'carId' });
      expect(await errorOf(core.setPreferences({ theme: 'neon' as never }))).toMatchObject({ kind: 'invalid-input', field: 'theme' });
      expect(await errorOf(core.connect({ baseUrl: 'ftp://x', clientKey: 'k', login: 'l', password: 'p' }))).toMatchObject({
        kind: 'invalid-input',
        field: 'baseUrl',
      });
      expect(await errorOf(core.sync())).toBeNull();
      expect((await core.sync()).errorCode).toBe('not-connected');
    } finally {
      await core.close();
      tmp.remove();
    }
    expect(await errorOf(core.getStatus())).toMatchObject({ kind: 'internal', message: 'The app core is closed.' });
  });

  it('answers a bug with a generic internal error and logs the details', async () => {
    const tmp = tempDir();
    const logged: unknown[] = [];
    const core = openCore(tmp.file('local.sqlite'), { log: (m, e) => logged.push([m, e]) });
    try {
      // A listener that throws is a bug in a screen: logged, and the write still succeeds.
      core.onEvent(() => {
        throw new Error('listener bug');
      });
      await core.saveCar({ carId: 1, name: 'Car' });
      expect(logged).toHaveLength(1);
      // A local copy whose settings table was dropped by hand: a bug too, internal, without details.
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(tmp.file('local.sqlite'));
      db.prepare('DROP TABLE settings').run();
      db.close();
      const err = (await errorOf(core.getPreferences())) as AppError;
      expect(err).toMatchObject({ kind: 'internal', message: 'Something went wrong inside the app. The details are in the log.' });
      expect(err.message).not.toMatch(/JSON|settings|sqlite/i);
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});

describe('a bug during a sync', () => {
  it('ends the sync with a generic message and logs the details for the developer', async () => {
    const logged: [string, unknown][] = [];
    const s = await newUser(service, { log: (m, e) => logged.push([m, e]) });
    try {
      await s.core.addCategory({ name: 'Logged', parentId: 0 });
      // A trigger put in by hand refuses the facts learned from the answer: storing the write's effect fails.
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(s.file);
      for (const event of ['INSERT', 'UPDATE']) {
        db.exec(
          `CREATE TRIGGER refuse_learned_${event} BEFORE ${event} ON settings WHEN NEW.key = 'learned' BEGIN SELECT RAISE(ABORT, 'refused by hand'); END`,
        );
      }
      db.close();
      expect(await s.core.sync()).toMatchObject({ errorCode: 'service', error: { code: 'syncUnexpected', params: {} } });
      expect(logged).toEqual([[expect.stringMatching(/sync/), expect.any(Database.SqliteError)]]);
    } finally {
      await s.done();
    }
  });
});

describe('connection and status', () => {
  it('warns as data of what the service lacks: an older variant it falls back to, an operation nothing replaces', async () => {
    // A service whose WSDL lists only the older account list and the category tree.
    const wsdl = `<?xml version="1.0" encoding="utf-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="http://tempuri.org/">
  <portType name="APIserviceSoap"><operation name="AccountListWithAmount"/><operation name="CategoryTree"/></portType>
</definitions>`;
    const old = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(wsdl));
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const tmp = tempDir();
    const core = createAppCore({
      dataFile: tmp.file('local.sqlite'),
      secrets: new MemorySecretStore(),
      timeZone: 'Europe/Prague',
      log: () => undefined,
    });
    try {
      const report = await core.testConnection({ baseUrl: `http://127.0.0.1:${(old.address() as AddressInfo).port}` });
      expect(report.state).toBe('not-checked');
      expect(report.warnings).toEqual([
        { code: 'olderOperation', params: { wanted: 'AccountListWithAmount2', used: 'AccountListWithAmount' } },
        { code: 'operationMissing', params: { operations: 'TransactionListLast50_2, TransactionListLast50' } },
        { code: 'operationMissing', params: { operations: 'DefineTransactionList2, DefineTransactionList' } },
        ...['CarFuelList', 'AddAccount', 'EditAccount', 'AddTranferToOtherAccount', 'AddCategory', 'EditCategory', 'EditCarFuel'].map(
          (operations) => ({
            code: 'operationMissing',
            params: { operations },
          }),
        ),
      ]);
      // The command line's words for one of them.
      expect(warningText(report.warnings[0]!)).toBe(
        'The service lacks AccountListWithAmount2; the app uses the older AccountListWithAmount.',
      );
    } finally {
      await core.close();
      old.close();
      tmp.remove();
    }
  });

  it('tests, connects, reports status, and keeps secrets out of the data file', async () => {
    addClient(service.dataFile, 'a-very-distinctive-client-key');
    addUser(service.dataFile, 'status-user', 'a-very-distinctive-password', { hashParams: TEST_HASH_PARAMS });
    const tmp = tempDir();
    const file = tmp.file('local.sqlite');
    // safeStorage stand-in: Electron cannot run here; a reversible cipher shows what is stored.
    const cipher: StringCipher = {
      isEncryptionAvailable: () => true,
      encryptString: (s) => Buffer.from([...Buffer.from(s, 'utf8')].map((b) => b ^ 0x5a)),
      decryptString: (b) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString('utf8'),
    };
    const core = createAppCore({
      dataFile: file,
      secrets: (p) => new EncryptedSecretStore(cipher, p),
      timeZone: 'Europe/Prague',
      log: () => undefined,
    });
    try {
      const empty = await core.getStatus();
      expect(empty).toMatchObject({
        configured: false,
        connection: null,
        workingOffline: false,
        syncing: false,
        lastSyncAt: null,
        offline: false,
      });
      const report = await core.testConnection({ baseUrl: `${service.url}/API/APIservice.asmx?WSDL` });
      // The address alone: the service answers; no credentials were given to check.
      expect(report).toMatchObject({
        ok: false,
        state: 'not-checked',
        baseUrl: service.url,
        namespace: service.namespace,
        missing: [],
        warnings: [],
        error: null,
      });
      expect(report.operations).toHaveLength(15);
      const down = await core.testConnection({ baseUrl: 'http://127.0.0.1:9' });
      expect(down).toMatchObject({ ok: false, state: 'unreachable', error: { code: 'unreachable' } });
      expect(englishOf(down.error)).toMatch(/refused|connection/);

      const events: AppEvent[] = [];
      core.onEvent((e) => events.push(e));
      const status = await core.connect({
        baseUrl: service.url,
        clientKey: 'a-very-distinctive-client-key',
        login: 'status-user',
        password: 'a-very-distinctive-password',
      });
      expect(status).toMatchObject({
        configured: true,
        connection: { baseUrl: service.url, namespace: service.namespace, login: 'status-user', binding: 'soap12', hasSecrets: true },
      });
      expect(events.map((e) => e.type)).toEqual(['data-changed']);
      expect((await core.sync()).error).toBeNull();
      expect(await core.workOffline()).toMatchObject({ workingOffline: true });
      // Each change says which tables it touched: screens showing others do not read again.
      const tables = () => (events.at(-1) as Extract<AppEvent, { type: 'data-changed' }>).tables;
      expect(tables()).toEqual([]);
      await core.saveCar({ carId: 3, name: 'Fabia' });
      expect(tables()).toEqual(['cars']);
      await core.addRefueling({
        carId: 3,
        dateOfPurchase: '2026-11-21T08:00',
        tachometer: 1000,
        liter: '40',
        price: '1600',
        currency: 203,
        rate: '1',
        description: '',
      });
      expect(tables()).toEqual(['refuelings', 'cars', 'outbox']);
      await core.addCategory({ name: 'Fuel', parentId: 0 });
      expect(tables()).toEqual(['categories', 'outbox']);
      // A sync names what it changed: here the two writes it sent (and the pull found as they were sent).
      await core.sync();
      expect(new Set(tables())).toEqual(new Set(['refuelings', 'cars', 'categories', 'outbox']));
    } finally {
      await core.close();
    }
    // Every file, the safety copies beside the data file included.
    const bytes = (readdirSync(tmp.dir, { recursive: true }) as string[])
      .filter((f) => statSync(join(tmp.dir, f)).isFile())
      .map((f) => readFileSync(join(tmp.dir, f)).toString('latin1'))
      .join('');
    expect(bytes).toContain('status-user');
    expect(bytes).not.toContain('a-very-distinctive-password');
    expect(bytes).not.toContain('a-very-distinctive-client-key');
    tmp.remove();
  });

  it('switching to another user clears the server copy, but not while writes wait', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await connectDemo(core, service.url);
      expect((await core.sync()).error).toBeNull();
      expect((await core.listAccounts({})).accounts.length).toBeGreaterThan(3);
      await core.addCategory({ name: 'Unsent', parentId: 0 });
      expect(await errorOf(connectDemo(core, service.url, 'demo2'))).toMatchObject({
        kind: 'rule',
        message: expect.stringMatching(/outbox still holds 1/),
      });
      expect((await core.getStatus()).connection!.login).toBe('demo');
      await core.discardOutbox({ id: (await core.listOutbox())[0]!.id });
      await connectDemo(core, service.url, 'demo2');
      expect((await core.listAccounts({ includeHidden: true, includeInactive: true })).accounts).toEqual([]);
      expect((await core.sync()).error).toBeNull();
      expect((await core.getStatus()).connection!.login).toBe('demo2');
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('a connection over another binding works the same', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await core.connect({ baseUrl: service.url, clientKey: 'demo', login: 'demo', password: 'demo', binding: 'httpPost' });
      await core.addCategory({ name: 'Over POST', parentId: 0 });
      expect(await core.sync()).toMatchObject({ pushed: 1, error: null });
      await core.setPreferences({ binding: 'soap11' });
      expect((await core.getStatus()).connection!.binding).toBe('soap11');
      await core.renameCategory({ id: (await core.getCategoryTree()).all.find((c) => c.name === 'Over POST')!.id, name: 'Over SOAP 1.1' });
      expect(await core.sync()).toMatchObject({ pushed: 1, error: null });
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});

describe('preferences, cars and read views', () => {
  it('keeps preferences, names cars, and shows templates, categories and refuelings', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      expect(await core.getPreferences()).toEqual({
        language: 'cs',
        theme: 'system',
        accountTypeLabels: {},
        transactionTypeLabels: {},
        lastCarId: null,
        lastCurrency: null,
      });
      expect(await core.setPreferences({ language: 'en', accountTypeLabels: { '1': 'Cash' }, lastCarId: 2 })).toMatchObject({
        language: 'en',
        theme: 'system',
        accountTypeLabels: { '1': 'Cash' },
        lastCarId: 2,
      });
      expect(await core.setPreferences({ lastCarId: null })).toMatchObject({ language: 'en', lastCarId: null });

      await connectDemo(core, service.url);
      expect(await core.saveCar({ carId: 2, name: 'Fabia' })).toEqual([
        { carId: 2, name: 'Fabia', refuelings: 0, lastTachometer: null, lastDate: null, lastCurrency: null, pending: false },
      ]);
      await core.saveCar({ carId: 1, name: 'Octavia' });
      expect((await core.sync()).error).toBeNull();
      const cars = await core.listCars();
      expect(cars.map((c) => c.name)).toEqual(['Fabia', 'Octavia']);
      expect(cars.every((c) => c.refuelings > 0 && c.lastTachometer !== null)).toBe(true);
      const refuelings = await core.listRefuelings({ carId: 1 });
      expect(refuelings.length).toBe(cars[1]!.refuelings);
      expect(refuelings.every((r) => /^\d+\.\d{1,3}$|^\d+$/.test(r.pricePerLiter!))).toBe(true);
      const templates = await core.listTemplates();
      expect(templates.length).toBeGreaterThan(0);
      expect(templates.every((t) => t.accountName !== null)).toBe(true);
      const tree = await core.getCategoryTree();
      expect(tree.all.length).toBeGreaterThan(3);
      expect(tree.favorites.every((f) => f.children.length === 0)).toBe(true);
      await core.addRefueling({
        carId: 1,
        dateOfPurchase: '2099-01-01T08:00',
        tachometer: 999999,
        liter: '3',
        price: '10',
        currency: 203,
        rate: '1',
        description: 'newest',
      });
      expect((await core.listRefuelings({ carId: 1 }))[0]).toMatchObject({ description: 'newest', pending: true, pricePerLiter: '3.333' });
      expect(await errorOf(core.removeCar({ carId: 1 }))).toMatchObject({ kind: 'rule' });
      expect(await core.removeCar({ carId: 2 })).toHaveLength(1);
      expect(await errorOf(core.removeCar({ carId: 2 }))).toMatchObject({ kind: 'not-found' });
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('a hand-set namespace connects to a service without reading its WSDL', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'), { secrets: new MemorySecretStore() });
    try {
      const wrong = await errorOf(
        core.connect({ baseUrl: service.url, namespace: 'urn:wrong', clientKey: 'demo', login: 'demo', password: 'demo' }),
      );
      expect(wrong).toMatchObject({ kind: 'service' });
      // It goes into every request's XML and headers: a namespace that cannot be a URI is refused first.
      for (const namespace of ['urn:a b', 'urn:"x"', 'urn:x\nSOAPAction: y', 'urn:<x>']) {
        expect(
          await errorOf(core.connect({ baseUrl: service.url, namespace, clientKey: 'demo', login: 'demo', password: 'demo' })),
          namespace,
        ).toMatchObject({ kind: 'invalid-input', field: 'namespace' });
        expect(await errorOf(core.testConnection({ baseUrl: service.url, namespace })), namespace).toMatchObject({
          kind: 'invalid-input',
          field: 'namespace',
        });
      }
      await core.connect({ baseUrl: service.url, namespace: service.namespace, clientKey: 'demo', login: 'demo', password: 'demo' });
      expect((await core.getStatus()).connection!.namespace).toBe(service.namespace);
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
