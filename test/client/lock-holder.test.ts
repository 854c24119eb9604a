/**
 * The sync lock names a process by PID and start time: a live process with the PID but another start
 * (the PID reused after the holder died) holds nothing, nor does a zombie, nor a PID that is gone.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { currentHolder, holderAlive, isCurrent } from '../../src-main/core/sync/lock-holder';

describe.skipIf(process.platform !== 'linux')('the sync lock holder', () => {
  it('is this process; a reused PID, a zombie and a gone process hold nothing', async () => {
    const me = currentHolder();
    expect(isCurrent(me)).toBe(true);
    expect(me.start).toMatch(/^\d+$/);
    expect(holderAlive(me)).toBe(true);
    expect(holderAlive({ ...me, start: String(Number(me.start) + 1) })).toBe(false);

    // A child that exits but is not yet reaped is a zombie for a moment: node reaps on 'exit'.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    await once(child, 'spawn');
    const holder = { pid: child.pid!, host: me.host };
    expect(holderAlive(holder)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(holderAlive(holder)).toBe(false);
  });
});
