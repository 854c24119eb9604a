/** The app API tour's part for CSV export and import, backup and restore (see app-api-tour.ts). */
import { expect } from 'vitest';
import {
  importProblemText,
  type BackupFile,
  type ImportPreview,
  type ImportResult,
  type OutboxEntryView,
  type RefuelingView,
  type RestoreResult,
  type SafetyCopyInfo,
} from '../../src-shared/app-api';
import type { TourCall } from './app-api-tour';

/** Two refuelings to import and one row the preview must refuse, naming its column. */
const CSV = [
  'datum;stav tachometru;litry;cena;měna;částečné',
  '1.11.2026 7:30;998 000;38,5;1 540,50;CZK;ne',
  '10.11.2026 18:00;998 600;20;810;CZK;ano',
  'včera;1;1;1;CZK;ne',
].join('\r\n');

export async function tourFiles(ok: TourCall, at: { carId: number }): Promise<void> {
  const input = { carId: at.carId, content: CSV, currency: 203 };
  const preview = await ok<ImportPreview>('previewRefuelingImport', input);
  expect(preview.delimiter).toBe(';');
  expect(preview.counts).toEqual({ rows: 3, ready: 2, problems: 1, duplicates: 0 });
  expect(preview.rows[0]!.refueling).toMatchObject({
    dateOfPurchase: '2026-11-01T07:30:00',
    tachometer: 998000,
    liter: '38.5',
    price: '1540.5',
    partial: false,
  });
  expect(preview.rows[2]!.problems).toEqual([
    { code: 'importNotDate', params: { value: '"včera"' }, field: 'dateOfPurchase', column: { index: 0, name: 'datum' } },
  ]);
  expect(preview.rows[2]!.problems.map(importProblemText)).toEqual([
    'Column "datum": "včera" is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.',
  ]);

  expect(await ok<ImportResult>('importRefuelings', input)).toEqual({ queued: 2, skipped: 1 });
  const imported = (await ok<RefuelingView[]>('listRefuelings', { carId: at.carId })).filter(
    (r) => r.tachometer === 998000 || r.tachometer === 998600,
  );
  expect(imported.map((r) => [r.tachometer, r.partial, r.pending])).toEqual([
    [998600, true, true],
    [998000, false, true],
  ]);

  const outbox = await ok<OutboxEntryView[]>('listOutbox');
  const backup = await ok<BackupFile>('createBackup');
  expect(backup.counts.pendingWrites).toBe(outbox.length);
  expect(Buffer.from(backup.data, 'base64').subarray(0, 15).toString('latin1')).toBe('SQLite format 3');

  // The backup just made holds this very outbox: every write comes back pending, none needs a check.
  const restored = await ok<RestoreResult>('restoreBackup', { data: Buffer.from(backup.data, 'base64') });
  expect(restored).toMatchObject({ counts: backup.counts, uncertainWrites: 0 });
  const after = await ok<OutboxEntryView[]>('listOutbox');
  expect(after.map((e) => [e.id, e.kind, e.status])).toEqual(outbox.map((e) => [e.id, e.kind, e.status]));
  expect((await ok<RefuelingView[]>('listRefuelings', { carId: at.carId })).find((r) => r.tachometer === 998600)?.partial).toBe(true);
  // The restore kept a safety copy of what it replaced, newest first.
  const copies = await ok<SafetyCopyInfo[]>('listSafetyCopies');
  expect(copies[0]).toMatchObject({ reason: 'before-restore', at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
}
