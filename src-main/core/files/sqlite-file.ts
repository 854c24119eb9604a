/**
 * SQLite files beside the local copy: where the temporary copies made for a backup or a restore go, and
 * how one is removed with what SQLite left beside it. What such a file holds is the store's to read
 * (store/backup-file.ts).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A fresh path in the local copy's own folder: the same disk (no copy across file systems) and the
 * same permissions as the data itself, rather than a shared temp folder.
 */
export function tempFileBeside(dataFile: string, purpose: string): string {
  return join(dirname(dataFile), `.${basename(dataFile)}.${purpose}-${randomUUID()}`);
}

/** Removes a SQLite file with the journal files SQLite may have left beside it. */
export function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}
