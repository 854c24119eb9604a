/**
 * The app's log: JSON lines through pino in one file, rotated by size, secrets redacted by the logger's
 * configuration; a bug's message names the file; diagnostics carry the log's tail and never a secret.
 * The command line logs beside the data file (or where --log says) and only when it has something to log.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src-main/core/app/app-core';
import { KEEP_ROTATED, openAppLog } from '../../src-main/core/log/app-log';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { runCliOn } from '../support/cli';
import { tempDir } from '../support/client';
import { seedTestUser, startTestService } from '../support/service';

const tmp = tempDir('bookkeeping-log-');
afterAll(() => tmp.remove());

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the app log', () => {
  it('writes JSON lines with the error and its stack, and redacts secrets given as fields', () => {
    const file = tmp.file('logs/app.log');
    const log = openAppLog(file);
    expect(existsSync(file)).toBe(false);
    log.error('Something broke', new Error('boom'));
    log.info('connecting', {
      login: 'jana',
      password: 'hunter2',
      clientKey: 'key-123',
      credentials: { password: 'x' },
      request: { headers: { authorization: 'Basic abc' } },
    });
    log.close();
    const [first, second] = lines(file);
    expect(first).toMatchObject({ level: 50, msg: 'Something broke', err: { message: 'boom' } });
    expect(String((first!.err as { stack: string }).stack)).toContain('Error: boom');
    expect(second).toMatchObject({
      level: 30,
      msg: 'connecting',
      login: 'jana',
      password: '[redacted]',
      clientKey: '[redacted]',
      credentials: '[redacted]',
    });
    expect(readFileSync(file, 'utf8')).not.toMatch(/hunter2|key-123|Basic abc/);
  });

  it('rotates by size, keeping a bounded number of old files', () => {
    const file = tmp.file('rotating/app.log');
    const log = openAppLog(file, { maxBytes: 2000 });
    for (let i = 0; i < 200; i++) log.info(`line ${i} ${'x'.repeat(50)}`);
    log.close();
    const files = readdirSync(tmp.file('rotating')).sort();
    expect(files).toEqual(['app.log', ...Array.from({ length: KEEP_ROTATED }, (_, i) => `app.log.${i + 1}`)]);
    expect(lines(file).at(-1)).toMatchObject({ msg: expect.stringMatching(/^line 199 /) });
  });

  it("a bug's message names the log, which holds the details; diagnostics hold its tail and no secret", async () => {
    const service = await startTestService();
    const dataFile = tmp.file('core.sqlite');
    const appLog = openAppLog(tmp.file('core.log'));
    const core = createAppCore({ dataFile, secrets: new MemorySecretStore(), appLog, about: { version: '9.9.9', runtime: 'test' } });
    try {
      const credentials = { clientKey: 'diag-key-77', login: 'diag-user', password: 'diag-secret-pw' };
      seedTestUser(service.dataFile, credentials);
      await core.connect({ baseUrl: service.url, ...credentials });
      expect((await core.sync()).error).toBeNull();
      // Another program breaks the file under the app: an error the core has no words for.
      const other = new Database(dataFile);
      other.exec('DROP TABLE refueling_marks');
      other.close();
      const failure = await core.listRefuelings({ carId: 1 }).catch((e: unknown) => e);
      expect(failure).toMatchObject({
        kind: 'internal',
        message: `Something went wrong inside the app. The details are in the log: ${appLog.file}.`,
      });
      expect(lines(appLog.file).at(-1)).toMatchObject({ level: 50, err: { message: expect.stringContaining('refueling_marks') } });
      const d = await core.getDiagnostics();
      expect(d.logFile).toBe(appLog.file);
      expect(d.text).toMatch(/^Bookkeeping 9\.9\.9 \(test\) on /);
      expect(d.text).toContain('refueling_marks');
      expect(d.text).toContain('Last sync: {');
      expect(d.text).not.toMatch(/diag-key-77|diag-secret-pw/);
      expect(readFileSync(appLog.file, 'utf8')).not.toMatch(/diag-key-77|diag-secret-pw/);
    } finally {
      await core.close();
      appLog.close();
      await service.close();
    }
  });

  it('the command line logs beside the data file, or where --log says, and only when there is something to log', async () => {
    const data = tmp.file('cli.sqlite');
    const plain = await runCliOn(data, ['diagnostics']);
    expect(plain.code).toBe(0);
    // Nothing logged yet: diagnostics says so rather than naming a file that is not there.
    expect(plain.out).toContain(`Log: nothing logged yet (it will be written to ${data}.log)`);
    expect(existsSync(`${data}.log`)).toBe(false);
    const elsewhere = await runCliOn(data, ['diagnostics', '--log', tmp.file('elsewhere.log')]);
    expect(elsewhere.out).toContain(`Log: nothing logged yet (it will be written to ${tmp.file('elsewhere.log')})`);
  });
});
