/**
 * Local copies damaged on disk, for the recovery tests: a copy opened once by an older schema (so that
 * the migration to the newest made a safety copy of it), then garbage written over its first page's
 * b-tree, past the 100-byte header, so that SQLite cannot read the schema.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { MIGRATIONS, Store } from '../../src-main/core/store';

export const NEWEST_SCHEMA = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** Writes garbage past the header: the file still reads as SQLite, but its schema cannot be read. */
export function damage(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(3000, 0xa5), 0, 3000, 100);
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes a local copy at `file` (with a safety copy made by the migration to the newest schema, unless
 * `safetyCopy` is false), lets `fill` write to it first, then damages it.
 */
export function damagedLocalCopy(file: string, options: { safetyCopy?: boolean; fill?: (store: Store) => void } = {}): string {
  const older = new Store(file, {
    migrations: options.safetyCopy === false ? MIGRATIONS : MIGRATIONS.filter((m) => m.version < NEWEST_SCHEMA),
  });
  options.fill?.(older);
  older.close();
  new Store(file, options.safetyCopy === false ? { noSafetyCopies: true } : {}).close();
  damage(file);
  return file;
}
