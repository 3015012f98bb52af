import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Says once per run when the browser suites skip, and how to enable them.
    globalSetup: ['test/helpers/browser-notice.ts'],
    // Real sockets, child processes and a real browser: generous per-test budgets, no timing asserts.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker keeps its loaded modules from one file to the next: loading the SDK, undici and the
    // sandbox again for each of 120 files cost more than a third of the run. Tests own no module
    // state (servers, sandboxes and timers are made and closed per file). A file that mocks a
    // module must load what uses it afresh (vi.resetModules, then import): another file may
    // already have loaded it unmocked in the same worker.
    isolate: false,
    // The suite mostly waits on sockets and child processes, so more files than cores run at once
    // (vitest's default leaves one core idle, which on a 2-core machine means one file at a time).
    maxWorkers: Math.max(4, availableParallelism()),
    // Snapshots are reviewed diffs: CI=true makes a missing snapshot fail instead of being written.
    update: false,
  },
});
