/**
 * The outbox's undecidable status: a write whose arrival the sync cannot tell has a status of its own
 * (not "unknown with a message"), in the local copy's schema, when an older copy comes back, in the app
 * API's counts and in the command line's words.
 */
import { describe, expect, it } from 'vitest';
import { SYNC_EXIT, syncExitCode } from '../../src-main/cli/exit-codes';
import { summaryText } from '../../src-main/cli/format';
import { reviveOutbox } from '../../src-main/core/outbox/revive';
import type { SoapClient } from '../../src-main/core/soap-client';
import { MIGRATIONS, Store } from '../../src-main/core/store';
import { type ServerSnapshot, WritePusher } from '../../src-main/core/sync';
import { EffectUndecidable } from '../../src-main/core/write-kinds';
import type { SyncSummary } from '../../src-shared/app-api';
import { tempDir, withStore } from '../support/client';
import { accountRow } from '../support/local-rows';

const TRANSFER = { sourceId: 1, targetId: 2, amount: '5', paymentDate: '2026-01-05T10:00', categoryId: 0, description: 'rent' };

describe('an outbox entry whose arrival cannot be told', () => {
  it('becomes undecidable in a copy kept before it had a status of its own, outbox ids never handed out twice', () => {
    const tmp = tempDir();
    try {
      const file = tmp.file('local.sqlite');
      const older = new Store(file, { migrations: MIGRATIONS.filter((m) => m.version < 4), noSafetyCopies: true });
      const add = (status: string, message: string | null, probe: unknown) =>
        older.db
          .prepare(
            "INSERT INTO outbox (kind, input, status, message, probe, created_at) VALUES ('transfer', ?, ?, ?, ?, '2026-01-01T00:00')",
          )
          .run(JSON.stringify(TRANSFER), status, message, JSON.stringify(probe));
      add('pending', null, null);
      add('unknown', null, { source: { ids: [], matching: 0 } });
      add('unknown', 'The service lists cannot show it.', { source: { ids: [], matching: 0 } });
      add('unknown', 'Restored from a backup: ...', { undecidable: 'What the service held before it cannot be told from this copy.' });
      add('pending', null, null);
      // The last entry, sent and settled, is gone: its id must not come back.
      older.db.prepare('DELETE FROM outbox WHERE id = 5').run();
      older.close();

      const store = new Store(file, { noSafetyCopies: true });
      try {
        expect(store.outbox.all().map((e) => [e.id, e.status, e.message, e.probe])).toEqual([
          [1, 'pending', null, null],
          [2, 'unknown', null, { source: { ids: [], matching: 0 } }],
          [3, 'undecidable', 'The service lists cannot show it.', { source: { ids: [], matching: 0 } }],
          // The probe's words are its message; no probe is left to look for an effect with.
          [4, 'undecidable', 'What the service held before it cannot be told from this copy.', null],
        ]);
        expect(store.outbox.append('transfer', TRANSFER, '2026-01-02T00:00')).toBe(6);
        expect(() => store.outbox.setStatus(1, 'undecidable', 'x')).not.toThrow();
        // The table still refuses a status that is none.
        expect(() => store.db.prepare("UPDATE outbox SET status = 'maybe' WHERE id = 1").run()).toThrow(/CHECK constraint/);
      } finally {
        store.close();
      }
    } finally {
      tmp.remove();
    }
  });

  it('is undecidable at once when an older copy brings back a create whose probe it cannot give, and stays so at the check', async () => {
    await withStore(async (store) => {
      store.transaction(() => {
        store.accounts.upsert(accountRow({ id: 1 }), 0);
        store.accounts.upsert(accountRow({ id: 2 }), 1);
        // A service that lists transactions without ids: the copy cannot say which ones are new.
        store.transactions.upsert([
          {
            key: 'h:1',
            id: null,
            accountId: 1,
            paymentDate: '2026-01-01T00:00',
            type: 1,
            amount: '1',
            description: 'x',
            categoryId: 0,
            userId: 1,
            userCreatedId: 1,
          },
        ]);
      });
      const transfer = store.outbox.append('transfer', TRANSFER, '2026-01-02T00:00', null, [-1, -2]);
      const edit = store.outbox.append('editAccount', { ...accountRow({ id: 1 }), name: 'B' }, '2026-01-02T00:00', { name: 'A' });
      expect(store.transaction(() => reviveOutbox(store, { cause: 'Restored from a backup' }))).toBe(2);
      const [t, e] = [store.outbox.get(transfer)!, store.outbox.get(edit)!];
      expect(t).toMatchObject({
        status: 'undecidable',
        probe: null,
        message: expect.stringMatching(/^Restored from a backup: .*cannot be told/),
      });
      // An edit is decided by comparing values: the next sync checks it.
      expect(e).toMatchObject({ status: 'unknown', message: expect.stringMatching(/next sync looks for it/) });

      const pusher = new WritePusher(null as unknown as SoapClient, store, null as unknown as ServerSnapshot);
      await expect(pusher.findEffect(t)).rejects.toBeInstanceOf(EffectUndecidable);
      await expect(pusher.findEffect(t)).rejects.toThrow(t.message!);
      // Revived again (another restore), it keeps its status and words.
      expect(store.transaction(() => reviveOutbox(store, { cause: 'Recovered' }))).toBe(0);
      expect(store.outbox.get(transfer)).toEqual(t);
    });
  });

  it('is counted apart in the command line’s summary, which says what to do, and makes a sync exit as needing the user', () => {
    const summary: SyncSummary = {
      startedAt: '2026-01-01T00:00:00',
      finishedAt: '2026-01-01T00:00:05',
      first: false,
      pushed: 1,
      refused: 0,
      conflicts: 0,
      unknown: 0,
      undecidable: 1,
      waiting: 1,
      pulled: null,
      received: null,
      error: null,
      errorCode: null,
    };
    expect(summaryText(summary)).toMatch(
      /unknown 0, undecidable 1;.* 1 write may be on the service: check there, then `outbox retry <id>`/,
    );
    expect(syncExitCode(summary)).toBe(SYNC_EXIT.refused);
    expect(syncExitCode({ ...summary, undecidable: 0, waiting: 0 })).toBe(SYNC_EXIT.delivered);
  });
});
