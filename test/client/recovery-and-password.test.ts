/**
 * Two ways the windowed app stays usable where it used to stop with a sentence:
 * - a local copy damaged on disk opens to the recovery state (status.damaged), every other method is
 *   refused with 'damaged', and recoverLocalCopy puts the newest sound safety copy in place or starts a
 *   new empty copy; the damaged file is kept aside either way;
 * - a password kept nowhere (rememberPassword false) is asked at each sync: a sync without one ends with
 *   'password-needed' and sends nothing; a sync given one goes through, and the password is not stored;
 * - where no keychain exists, the client key is sealed under the password (Argon2id), and after a
 *   restart the password alone opens it again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecoverableCore } from '../../src-main/core/app/recoverable-core';
import { openAppLog } from '../../src-main/core/log/app-log';
import { MemorySecretStore, sealedSecrets } from '../../src-main/core/secrets';
import { listSafetyCopies, Store } from '../../src-main/core/store';
import { addUser, setPassword, TEST_HASH_PARAMS } from '../../src-service';
import { AppError } from '../../src-shared/app-api';
import { openCore, tempDir, TEST_SYNC_TUNING } from '../support/client';
import { damage, damagedLocalCopy, NEWEST_SCHEMA } from '../support/damaged-copy';
import { startTestService, type TestService } from '../support/service';

const tmp = tempDir('bookkeeping-recovery-');
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.kind : String(e)),
  );

/** A local copy with a safety copy (made by a migration) holding `marker`, then damaged past its header. */
const damagedCopyWithSafetyCopy = (name: string) =>
  damagedLocalCopy(tmp.file(name), { fill: (store) => store.settings.set('copyId', 'kept') });

function recoverable(file: string) {
  return openRecoverableCore({
    dataFile: file,
    secrets: new MemorySecretStore(),
    timeZone: 'Europe/Prague',
    sync: TEST_SYNC_TUNING,
    log: () => undefined,
  });
}

describe('a damaged local copy in the windowed shells', () => {
  it('opens to the recovery state, refuses everything else, and recovers from the newest safety copy', async () => {
    const file = damagedCopyWithSafetyCopy('damaged-safety.sqlite');
    const core = recoverable(file);
    try {
      const status = await core.getStatus();
      expect(status.damaged).toMatchObject({ file, safetyCopies: [{ reason: `before-schema-${NEWEST_SCHEMA}` }] });
      expect(status.configured).toBe(false);
      expect(await codeOf(core.listAccounts({}))).toBe('damaged');
      expect(await codeOf(core.sync())).toBe('damaged');
      expect(await codeOf(core.recoverLocalCopy({ from: 'nowhere' } as never))).toBe('invalid-input');

      const recovered = await core.recoverLocalCopy({ from: 'safety-copy' });
      expect(recovered.damaged).toBeNull();
      expect(await codeOf(core.listAccounts({}))).toBe('ok');
      // The damaged file is kept aside, never deleted.
      expect(
        readdirSync(dirname(file)).filter((f) => f.startsWith('damaged-safety.sqlite.damaged-') && !/-(wal|shm)$/.test(f)),
      ).toHaveLength(1);
      // Once open, there is nothing to recover.
      expect(await codeOf(core.recoverLocalCopy({ from: 'empty' }))).toBe('rule');
    } finally {
      await core.close();
    }
    const store = new Store(file);
    expect(store.settings.get('copyId')).toBe('kept');
    store.close();
  });

  it('a new copy keeps the connection and the preferences of the damaged one, read from its newest safety copy', async () => {
    const file = damagedLocalCopy(tmp.file('damaged-keeps.sqlite'), {
      fill: (store) => {
        store.settings.set('connection', {
          baseUrl: 'https://books.example.com',
          namespace: 'urn:books',
          login: 'jana',
          binding: 'soap12',
          operations: null,
          trustedCertificate: null,
          rememberPassword: true,
        });
        store.settings.set('preferences', { language: 'cs' });
        store.settings.setSecret('clientKey', 'sealed-bytes');
      },
    });
    const core = recoverable(file);
    try {
      const fresh = await core.recoverLocalCopy({ from: 'empty' });
      expect(fresh).toMatchObject({
        damaged: null,
        configured: true,
        connection: { baseUrl: 'https://books.example.com', namespace: 'urn:books', login: 'jana' },
      });
      expect((await core.getPreferences()).language).toBe('cs');
      expect(await core.listOutbox()).toEqual([]);
    } finally {
      await core.close();
    }
    const store = new Store(file);
    expect(store.settings.secret('clientKey')).toBe('sealed-bytes');
    expect(store.accounts.list()).toEqual([]);
    store.close();
  });

  it('logs the damage and the recovery in the log diagnostics names', async () => {
    const file = damagedCopyWithSafetyCopy('damaged-logged.sqlite');
    const logFile = tmp.file('logs/app.log');
    const appLog = openAppLog(logFile);
    const core = openRecoverableCore({ dataFile: file, secrets: new MemorySecretStore(), appLog });
    try {
      await core.recoverLocalCopy({ from: 'safety-copy' });
      expect((await core.getDiagnostics()).logFile).toBe(logFile);
    } finally {
      await core.close();
      appLog.close();
    }
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; file?: string });
    expect(lines.map((l) => l.msg)).toEqual([
      'The local copy is damaged',
      'The local copy was damaged and was recovered from a safety copy',
    ]);
    expect(lines[1]).toMatchObject({ file });
  });

  it('starts a new empty copy on request, keeping the damaged one aside', async () => {
    const file = damagedCopyWithSafetyCopy('damaged-empty.sqlite');
    const core = recoverable(file);
    try {
      expect((await core.getStatus()).damaged).not.toBeNull();
      const fresh = await core.recoverLocalCopy({ from: 'empty' });
      expect(fresh).toMatchObject({ damaged: null, configured: false });
      expect(readdirSync(dirname(file)).some((f) => f.startsWith('damaged-empty.sqlite.damaged-'))).toBe(true);
    } finally {
      await core.close();
    }
    const store = new Store(file);
    expect(store.settings.get('copyId')).toBeNull();
    store.close();
  });

  it('passes over a safety copy that is damaged in turn', async () => {
    const file = damagedCopyWithSafetyCopy('damaged-twice.sqlite');
    const core = recoverable(file);
    expect((await core.getStatus()).damaged!.safetyCopies).toHaveLength(1);
    // Damage the only safety copy too: nothing sound is left, and the copy stays where it is.
    damage(listSafetyCopies(file)[0]!.file);
    try {
      expect(await codeOf(core.recoverLocalCopy({ from: 'safety-copy' }))).toBe('rule');
      expect(existsSync(file)).toBe(true);
      expect((await core.getStatus()).damaged).not.toBeNull();
    } finally {
      await core.close();
    }
  });
});

describe('a password asked at each sync', () => {
  it('is kept nowhere: a sync without it sends nothing and says so; with it the sync goes through', async () => {
    addUser(service.dataFile, 'asked-user', 'an-asked-password', { hashParams: TEST_HASH_PARAMS });
    const secrets = new MemorySecretStore();
    const core = openCore(tmp.file('asked.sqlite'), { secrets });
    try {
      const status = await core.connect({
        baseUrl: service.url,
        clientKey: 'demo',
        login: 'asked-user',
        password: 'an-asked-password',
        rememberPassword: false,
      });
      expect(status.connection).toMatchObject({ rememberPassword: false, hasSecrets: true });
      expect(await secrets.get('password')).toBeNull();
      expect(await secrets.get('clientKey')).toBe('demo');

      await core.addAccount({
        name: 'Asked',
        description: '',
        currency: 203,
        type: 1,
        isActive: true,
        isHidden: false,
        locked: false,
        ord: 1,
      });
      const without = await core.sync();
      expect(without).toMatchObject({ errorCode: 'password-needed', pushed: 0 });
      expect((await core.getStatus()).outbox.pending).toBe(1);

      const wrong = await core.sync({ password: 'not-the-password' });
      expect(wrong.errorCode).toBe('auth');
      expect((await core.getStatus()).outbox.pending).toBe(1);

      const given = await core.sync({ password: 'an-asked-password' });
      expect(given).toMatchObject({ errorCode: null, pushed: 1 });
      expect((await core.getStatus()).outbox.pending).toBe(0);
      // Used for that sync only.
      expect(await secrets.get('password')).toBeNull();
      expect((await core.sync()).errorCode).toBe('password-needed');
    } finally {
      await core.close();
    }
  });

  it('typed again after a refusal replaces the remembered one', async () => {
    addUser(service.dataFile, 'changed-user', 'the-old-password', { hashParams: TEST_HASH_PARAMS });
    const secrets = new MemorySecretStore();
    const core = openCore(tmp.file('changed.sqlite'), { secrets });
    try {
      await core.connect({ baseUrl: service.url, clientKey: 'demo', login: 'changed-user', password: 'the-old-password' });
      expect(await secrets.get('password')).toBe('the-old-password');
      setPassword(service.dataFile, 'changed-user', 'the-new-password', { hashParams: TEST_HASH_PARAMS });
      expect((await core.sync()).errorCode).toBe('auth');
      // A wrong one typed again is not kept.
      expect((await core.sync({ password: 'a-wrong-one' })).errorCode).toBe('auth');
      expect(await secrets.get('password')).toBe('the-old-password');
      expect((await core.sync({ password: 'the-new-password' })).errorCode).toBeNull();
      expect(await secrets.get('password')).toBe('the-new-password');
      expect((await core.sync()).errorCode).toBeNull();
    } finally {
      await core.close();
    }
  });
});

describe('where no keychain exists (browser shell, a desktop without one)', () => {
  const FAST = { memoryKiB: 64, iterations: 1 };

  it('seals the client key under the password with Argon2id; after a restart the password alone opens it again', async () => {
    addUser(service.dataFile, 'sealed-user', 'the-sealing-password', { hashParams: TEST_HASH_PARAMS });
    const file = tmp.file('sealed.sqlite');
    const open = () => openCore(file, { secrets: (persistence) => sealedSecrets(persistence, FAST) });
    let core = open();
    try {
      await core.connect({ baseUrl: service.url, clientKey: 'demo', login: 'sealed-user', password: 'the-sealing-password' });
      expect((await core.sync()).errorCode).toBeNull();
    } finally {
      await core.close();
    }
    // The local copy holds the key sealed with Argon2id, its cost readable, and neither secret in clear.
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain('the-sealing-password');
    const store = new Store(file);
    const sealed = JSON.parse(store.settings.secret('sealed:clientKey')!);
    store.close();
    expect(sealed).toMatchObject({ v: 2, kdf: 'argon2id', m: FAST.memoryKiB, t: FAST.iterations });
    expect(Buffer.from(sealed.data, 'base64').toString('latin1')).not.toContain('demo');

    core = open();
    try {
      expect((await core.getStatus()).connection).toMatchObject({ hasSecrets: false, rememberPassword: true });
      expect((await core.sync()).errorCode).toBe('password-needed');
      const wrong = await core.sync({ password: 'not-it' });
      expect(wrong).toMatchObject({ errorCode: 'auth', error: { code: 'sealedKeyRefused', params: { again: 'password' } } });
      expect((await core.sync({ password: 'the-sealing-password' })).errorCode).toBeNull();
      // Remembered for the session, as the user chose.
      expect((await core.getStatus()).connection).toMatchObject({ hasSecrets: true });
      expect((await core.sync()).errorCode).toBeNull();
    } finally {
      await core.close();
    }
  });

  it('with the password asked at each sync, the key is sealed under the password given at connect', async () => {
    addUser(service.dataFile, 'sealed-asked', 'asked-and-sealed', { hashParams: TEST_HASH_PARAMS });
    const core = openCore(tmp.file('sealed-asked.sqlite'), { secrets: (persistence) => sealedSecrets(persistence, FAST) });
    try {
      await core.connect({
        baseUrl: service.url,
        clientKey: 'demo',
        login: 'sealed-asked',
        password: 'asked-and-sealed',
        rememberPassword: false,
      });
      expect((await core.getStatus()).connection).toMatchObject({ hasSecrets: true, rememberPassword: false });
      expect((await core.sync()).errorCode).toBe('password-needed');
      expect((await core.sync({ password: 'asked-and-sealed' })).errorCode).toBeNull();
      expect((await core.sync()).errorCode).toBe('password-needed');
    } finally {
      await core.close();
    }
  });
});
