/**
 * The app's log: structured JSON lines through pino, into one file (the desktop app's and the browser
 * shell's in the user-data folder, the command line's beside the data file or where --log says),
 * rotated by size (the current file and KEEP_ROTATED older ones). Secrets are redacted by the logger's
 * own configuration wherever they appear as fields; the app never writes them into messages.
 *
 * Every message that says "see the log" names this file, and "Copy diagnostics" reads its tail.
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';

export const MAX_LOG_BYTES = 5 * 1024 * 1024;
export const KEEP_ROTATED = 3;

/** Field paths whose values never reach the file, at any depth the app logs them. */
export const REDACTED_PATHS = [
  'password',
  'clientKey',
  'credentials',
  'trustedCertificate',
  '*.password',
  '*.clientKey',
  '*.credentials',
  '*.userPassword',
  '*.UserPassword',
  '*.APIClientKey',
  'headers.authorization',
  'headers["proxy-authorization"]',
  '*.headers.authorization',
  '*.headers["proxy-authorization"]',
];

export interface AppLog {
  /** The file written to. */
  readonly file: string;
  /** An unexpected failure: the message, and the error (stack kept for the developer). */
  error(message: string, error?: unknown): void;
  info(message: string, fields?: Record<string, unknown>): void;
  /** The last `lines` lines of the file (for diagnostics). */
  tail(lines: number): string;
  close(): void;
}

/** Moves file to file.1, file.1 to file.2 ... keeping KEEP_ROTATED. */
function rotate(file: string): void {
  rmSync(`${file}.${KEEP_ROTATED}`, { force: true });
  for (let i = KEEP_ROTATED - 1; i >= 1; i--) {
    try {
      renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    } catch {
      // Not there yet.
    }
  }
  try {
    renameSync(file, `${file}.1`);
  } catch {
    // Nothing to rotate.
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * The log of `file`, opened at its first line: a command that logs nothing leaves no file (nothing is
 * written beside a data file the app then refuses).
 */
export function openAppLog(file: string, options: { maxBytes?: number; level?: pino.Level } = {}): AppLog {
  const maxBytes = options.maxBytes ?? MAX_LOG_BYTES;
  let opened: { logger: pino.Logger; destination: ReturnType<typeof pino.destination> } | null = null;
  const open = () => {
    if (opened) return opened;
    // A folder made for the log is its owner's alone (an existing one, the data file's, is the user's to keep).
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (sizeOf(file) >= maxBytes) rotate(file);
    // Synchronous writes: a line about a crash is on disk before the process goes.
    const destination = pino.destination({ dest: file, sync: true, mkdir: true, mode: 0o600 });
    const logger = pino(
      {
        level: options.level ?? 'info',
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        serializers: { err: pino.stdSerializers.err },
      },
      destination,
    );
    opened = { logger, destination };
    return opened;
  };
  const close = () => {
    if (!opened) return;
    opened.destination.flushSync();
    opened.destination.end();
    opened = null;
  };
  // Past the size, the file is closed and the next line opens a new one (which rotates first): sonic-boom's
  // reopen would leave each old descriptor open until the next tick, one listener each, in a burst of lines.
  const afterWrite = () => {
    if (opened && sizeOf(file) >= maxBytes) close();
  };
  return {
    file,
    error(message, error) {
      open().logger.error(error === undefined ? {} : { err: error }, message);
      afterWrite();
    },
    info(message, fields) {
      open().logger.info(fields ?? {}, message);
      afterWrite();
    },
    tail(lines) {
      const size = sizeOf(file);
      if (size === 0) return '';
      const length = Math.min(size, 64 * 1024);
      const buf = Buffer.alloc(length);
      const fd = openSync(file, 'r');
      try {
        readSync(fd, buf, 0, length, size - length);
      } finally {
        closeSync(fd);
      }
      return buf.toString('utf8').split('\n').filter(Boolean).slice(-lines).join('\n');
    },
    close,
  };
}
