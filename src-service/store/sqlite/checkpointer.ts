/**
 * WAL checkpoints off the event loop. SQLite copies the WAL back into the database file by itself at
 * the commit that passes 1000 pages, on the connection that commits, with two fsyncs: on the service's
 * writer that stalled every request for 5 to 20 ms here every few dozen group commits. The writer runs
 * with automatic checkpoints off, and a worker thread with a connection of its own runs a PASSIVE
 * checkpoint a few times a second instead, which neither waits for nor blocks the writer or the readers
 * (and once the WAL is long, a RESTART: see RESTART_FRAMES).
 *
 * Durability is SQLite's either way: a commit is in the WAL before it is answered, and a checkpoint
 * syncs the WAL before it copies anything. Should the worker fail, the writer's automatic checkpoints
 * come back on (`onFailure`), so the WAL never grows without bound.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Plain JavaScript run in the worker: the driver's path comes in workerData, resolved from here. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result.log >= workerData.restartFrames) db.pragma('wal_checkpoint(RESTART)');
  } catch (e) {
    parentPort.postMessage({ failed: String((e && e.message) || e) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export const CHECKPOINT_INTERVAL_MS = 250;
/**
 * WAL frames (4 KiB pages) past which a checkpoint also restarts the WAL. A PASSIVE checkpoint copies
 * frames while the writer keeps appending, so under a steady write load it never catches up to the end,
 * the WAL is never started again from its beginning, and the file grew without bound (half a gigabyte in
 * ten seconds of transfers here). RESTART takes the write lock for the few frames PASSIVE left and the
 * two fsyncs (the writer waits that long, a few ms), after which the next write starts the WAL over;
 * `journal_size_limit` on the writer then trims the file to this size.
 */
export const RESTART_FRAMES = 16_384;

export class Checkpointer {
  private readonly worker: Worker;
  private readonly ended: Promise<void>;
  private failed = false;

  constructor(file: string, onFailure: (reason: string) => void, intervalMs = CHECKPOINT_INTERVAL_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs, restartFrames: RESTART_FRAMES } });
    this.ended = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    const fail = (reason: string) => {
      if (this.failed) return;
      this.failed = true;
      onFailure(reason);
    };
    this.worker.on('message', (m: { failed?: string }) => {
      if (m.failed !== undefined) fail(m.failed);
    });
    this.worker.on('error', (e) => fail(e.message));
    // The service's life decides the process's, not this thread's (after the listeners: they ref it).
    this.worker.unref();
  }

  /** Stops the worker; resolves once its connection is closed and the thread has ended. */
  close(): Promise<void> {
    // Held again so that the process waits for the thread's end rather than ending under it.
    this.worker.ref();
    this.worker.postMessage('close');
    return this.ended;
  }
}
