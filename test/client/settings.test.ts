/** The settings registry: typed reads and writes, a value that does not fit its schema read as the default. */
import { describe, expect, it } from 'vitest';
import { LOCAL_ONLY_CONDITION, SETTINGS } from '../../src-main/core/store/settings';
import { lastExchange } from '../../src-main/core/sync/exchanges';
import { withStore } from '../support/client';

describe('settings', () => {
  it('read their default until set, and what was set afterwards', async () => {
    await withStore(async (store) => {
      expect(store.settings.get('nextTempId')).toBe(-1);
      expect(store.settings.get('workingOffline')).toBe(false);
      expect(store.settings.get('connection')).toBeNull();
      store.settings.set('nextTempId', -7);
      store.settings.set('workingOffline', true);
      expect(store.settings.get('nextTempId')).toBe(-7);
      expect(store.settings.get('workingOffline')).toBe(true);
      store.settings.set('connection', null);
      expect(store.db.prepare("SELECT COUNT(*) FROM settings WHERE key = 'connection'").pluck().get()).toBe(0);
    });
  });

  it('refuse to write a value of the wrong shape, and read one stored wrong as the default', async () => {
    await withStore(async (store) => {
      // A temporary id is negative: a positive one would collide with the service's ids.
      expect(() => store.settings.set('nextTempId', 5)).toThrow();
      store.db.prepare("INSERT INTO settings (key, value) VALUES ('nextTempId', '\"seven\"'), ('workingOffline', '{')").run();
      expect(store.settings.get('nextTempId')).toBe(-1);
      expect(store.settings.get('workingOffline')).toBe(false);
      // Stored preferences of an older version keep what still fits (unknown keys are dropped).
      store.db.prepare('INSERT INTO settings (key, value) VALUES (\'preferences\', \'{"language":"en","fontSize":3}\')').run();
      expect(store.settings.get('preferences')).toEqual({ language: 'en' });
    });
  });

  it('read a summary and an exchange kept by an older version, whose errors were English words, without those words', async () => {
    await withStore(async (store) => {
      const older = {
        startedAt: '2026-11-01T10:00:00',
        finishedAt: '2026-11-01T10:00:05',
        pushed: 0,
        refused: 0,
        conflicts: 0,
        unknown: 0,
        waiting: 1,
        pulled: null,
        received: null,
      };
      const insert = store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
      insert.run(
        'lastSync',
        JSON.stringify({ ...older, error: 'The service is unavailable; 1 write still waiting.', errorCode: 'unavailable' }),
      );
      insert.run(
        'lastExchange',
        JSON.stringify({
          outcome: 'unreachable',
          at: '2026-11-01T10:00:05',
          via: 'sync',
          lastSuccessAt: null,
          message: 'The service is unavailable.',
        }),
      );
      // Undecidable writes were counted among the unknown then: none apart.
      expect(store.settings.get('lastSync')).toEqual({ ...older, first: false, undecidable: 0, error: null, errorCode: 'unavailable' });
      expect(store.settings.get('lastExchange')).toEqual({
        outcome: 'unreachable',
        at: '2026-11-01T10:00:05',
        via: 'sync',
        lastSuccessAt: null,
        error: null,
      });
      // Those written now keep their error as data.
      const error = { code: 'serviceUnavailable' as const, params: { waiting: 1, detail: 'HTTP 503' } };
      store.settings.set('lastSync', { ...older, first: false, undecidable: 0, error, errorCode: 'unavailable' });
      expect(store.settings.get('lastSync')?.error).toEqual(error);
    });
  });

  it('give the last exchange from a summary kept before exchanges were recorded, none for a sync that failed on this side', async () => {
    await withStore(async (store) => {
      const summary = {
        startedAt: '2026-11-01T10:00:00',
        finishedAt: '2026-11-01T10:00:05',
        first: false,
        pushed: 0,
        refused: 0,
        conflicts: 0,
        unknown: 0,
        undecidable: 0,
        waiting: 1,
        pulled: null,
        received: null,
      };
      store.settings.set('lastSync', {
        ...summary,
        error: { code: 'serviceUnavailable', params: { waiting: 1, detail: 'HTTP 503' } },
        errorCode: 'unavailable',
      });
      expect(lastExchange(store)).toMatchObject({ outcome: 'unreachable', at: summary.finishedAt, via: 'sync' });
      // A bug in this app is no word about the service (the sync records no exchange for it either).
      store.settings.set('lastSync', { ...summary, error: { code: 'syncUnexpected', params: {} }, errorCode: 'service' });
      expect(lastExchange(store)).toBeNull();
    });
  });

  it('say in one place which ones a backup leaves out', () => {
    const localOnly = Object.entries(SETTINGS)
      .filter(([, s]) => 'localOnly' in s)
      .map(([k]) => k)
      .sort();
    expect(localOnly).toEqual(['backup.createdAt', 'copyId', 'lastExchange', 'syncLock']);
    for (const key of localOnly) expect(LOCAL_ONLY_CONDITION).toContain(`'${key}'`);
    expect(LOCAL_ONLY_CONDITION).toContain("'secret.'");
  });
});
