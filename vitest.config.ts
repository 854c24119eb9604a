import { availableParallelism } from 'node:os';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Hang guards, not speed bounds (speed is npm run bench's): a case that starts processes (the service's or
    // the app's command line, a browser, a PostgreSQL cluster) on a 2-core machine running other work may take
    // a minute; what a test waits for has a deadline of its own.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // At least two files at a time: vitest's default (one fewer than the cores) runs one at a time on a 2-core CI
    // machine, where most files wait on processes of their own (a service, a browser, a PostgreSQL cluster) with a
    // core idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default report, then one line naming suites skipped for a program this machine lacks.
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
