/** Files the command line reads and writes for the core: CSV to import, backups. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../src-node/cli';

/** A file's bytes, refused when missing or larger than `maxBytes` (before it is read). */
export function readLimited(file: string, maxBytes: number, what: string): Buffer {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new UsageError(`${file} is not a file.`);
    size = stat.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  if (size > maxBytes) throw new UsageError(`${file} is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB, too large for ${what}.`);
  return readFileSync(file);
}

/** UTF-8 text of a file; bytes that are not UTF-8 are refused rather than replaced. */
export function readUtf8(file: string, maxBytes: number, what: string): string {
  const bytes = readLimited(file, maxBytes, what);
  try {
    // The BOM is kept for the reader, which says whether the file had one.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text; save it as UTF-8 CSV.`);
  }
}

/** Writes a file; an existing one only when `overwrite`. */
export function writeNew(file: string, bytes: Buffer, overwrite: boolean): void {
  try {
    writeFileSync(file, bytes, { flag: overwrite ? 'w' : 'wx', mode: 0o600 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new UsageError(`${file} exists; add --force to overwrite it.`);
    throw new UsageError(`Cannot write ${file}: ${code ?? 'error'}.`);
  }
}
