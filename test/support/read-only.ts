/**
 * A file or folder this process cannot write, for the read-only tests. The tests run as root here, whom
 * chmod does not stop: for root the file is made immutable (`chattr +i`, which refuses every write, root's
 * too, and which access(2) reports as EPERM); for any other user chmod does. Each returns its undo.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const asRoot = process.getuid?.() === 0;

export function makeReadOnly(path: string): () => void {
  if (asRoot) {
    execFileSync('chattr', ['+i', path]);
    return () => execFileSync('chattr', ['-i', path]);
  }
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, statSync(path).isDirectory() ? 0o555 : 0o444);
  return () => chmodSync(path, mode);
}

/** Whether makeReadOnly works here (chattr needs a file system that keeps the flag, such as ext4). */
export function readOnlyWorks(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-ro-probe-'));
  const file = join(dir, 'probe');
  writeFileSync(file, 'x');
  try {
    const undo = makeReadOnly(file);
    let refused = false;
    try {
      writeFileSync(file, 'y');
    } catch {
      refused = true;
    }
    undo();
    return refused;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
