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
    // Snapshots are reviewed diffs: CI=true makes a missing snapshot fail instead of being written.
    update: false,
  },
});
