/**
 * `npm run bench -- <name>` runs bench/<name>.bench.ts; without a name, lists the benchmarks.
 * Benchmarks print ratios measured within one run, because these machines are too noisy for absolute
 * figures to mean much from one run to the next.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = import.meta.dirname;
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (names.length === 0) {
  console.log(`Usage: npm run bench -- <name>\nBenchmarks: ${available.join(', ') || '(none)'}`);
  process.exit(available.length ? 0 : 1);
}
for (const name of names) {
  if (!available.includes(name)) {
    console.error(`Unknown benchmark "${name}". Benchmarks: ${available.join(', ')}`);
    process.exit(1);
  }
}
for (const name of names) {
  const mod = (await import(pathToFileURL(join(dir, `${name}.bench.ts`)).href)) as { run: (args: string[]) => Promise<void> };
  await mod.run(process.argv.slice(2).filter((a) => a !== name));
}
