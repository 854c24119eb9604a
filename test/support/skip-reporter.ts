/**
 * The line that ends a run with skipped suites: which test files were skipped because a program they
 * need is missing on this machine, and how to get it (see external-tools.ts). Silent when nothing was
 * skipped, as in CI, where a missing program fails instead.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter } from 'vitest/reporters';
import { SKIP_DIR_ENV, type SkipRecord } from './external-tools';

export default class SkipReporter implements Reporter {
  private dir = '';

  onInit(): void {
    // Set before the workers start: they inherit it and write their skips here.
    this.dir = mkdtempSync(join(tmpdir(), 'bookkeeping-test-skips-'));
    process.env[SKIP_DIR_ENV] = this.dir;
  }

  onTestRunEnd(): void {
    let records: SkipRecord[] = [];
    try {
      records = readFileSync(join(this.dir, 'skips.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as SkipRecord);
    } catch {
      // Nothing was skipped.
    }
    rmSync(this.dir, { recursive: true, force: true });
    const byTool = new Map<string, SkipRecord[]>();
    for (const r of records) byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r]);
    for (const [tool, skipped] of byTool) {
      const files = [...new Set(skipped.map((r) => r.file))].sort();
      console.log(
        `\nSkipped ${files.length} test file${files.length === 1 ? '' : 's'} that need ${tool} (none found): ${files.join(', ')}. To run them, ${skipped[0]!.howToGet}`,
      );
    }
  }
}
