import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, started first. Without a record of earlier durations (a fresh
 * clone, as CI runs) vitest starts larger files first, and the packed-package and bundle tests,
 * small files spending a minute in npm, started last and stretched the run by tens of seconds.
 */
const LONGEST_FIRST = [
  'test/bench/smoke.test.ts',
  'test/e2e/hosted-clients.test.ts',
  'test/e2e/hosted-key-rotation.test.ts',
  'test/e2e/scale-out.test.ts',
  'test/e2e/reconsent.test.ts',
  'test/e2e/hosted-mcp-remote.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/bundle.test.ts',
  'test/openapi/real-documents.test.ts',
  'test/e2e/tools-command.test.ts',
  'test/hosted/tools-as-caller.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => file.moduleId.replaceAll('\\', '/').endsWith(path));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

/**
 * The sandbox school's package (`packages/sandbox`) exports its TypeScript sources under this
 * condition (tsconfig.json names it too), so tests and type-checks read the sources without a
 * build; Node, the bundler and users of the published package take its built files.
 */
const SOURCE_CONDITIONS = ['@school-mcp/source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    include: ['test/**/*.test.ts'],
    // Says once per run when the browser suites skip, and how to enable them.
    globalSetup: ['test/helpers/browser-notice.ts'],
    // Real sockets, child processes and a real browser: generous per-test budgets, no timing asserts.
    // A budget only catches a hang, so it sits far above what a loaded machine takes: with four
    // CPU-bound processes beside the suite on 2 cores, end-to-end tests doing tens of round trips
    // between real processes (SCL-30 SCL-33 through three instances, HOST-14's three sign-ins, a
    // per-call host's link and login) took 9 to 11 s, and 24 to 31 s at a load average of 17,
    // where 30 s failed the first of them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
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
    sequence: { sequencer: LongestFirst },
    // Snapshots are reviewed diffs: CI=true makes a missing snapshot fail instead of being written.
    update: false,
  },
});
