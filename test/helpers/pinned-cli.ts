/**
 * Command-line tools that need a newer Node than the project's 20 and so are no dependency of it
 * (their `engines` would fail `npm ci` on Node 20 under `engine-strict`): `.ci/run` installs each
 * at a pinned version outside the repository and names its entry script in an environment
 * variable.
 */
import { spawn } from 'node:child_process';
import { describe, it } from 'vitest';
import { itNeeding } from './suite-gate.js';

export interface PinnedCli {
  /** What the test runs, e.g. "the MCP Inspector CLI". */
  readonly what: string;
  /** The entry script, from the environment variable `.ci/run` sets. */
  readonly script: string | undefined;
  /** The oldest Node it runs on, `[major, minor]`. */
  readonly minimumNode: readonly [number, number];
  /** How to make `script` available, said by a skipped or failed test. */
  readonly howToEnable: string;
}

export const INSPECTOR_CLI: PinnedCli = {
  what: 'the MCP Inspector CLI',
  script: process.env['SCHOOL_MCP_TEST_INSPECTOR'],
  minimumNode: [22, 19],
  howToEnable:
    'install @modelcontextprotocol/inspector@2.12.0 outside the repository and set SCHOOL_MCP_TEST_INSPECTOR to its clients/launcher/build/index.js (.ci/run does)',
};

// 0.1.16 calls fs.globSync at start, which Node 20 lacks.
export const CONFORMANCE_CLI: PinnedCli = {
  what: 'the MCP conformance suite',
  script: process.env['SCHOOL_MCP_TEST_CONFORMANCE'],
  minimumNode: [22, 0],
  howToEnable:
    'install @modelcontextprotocol/conformance@0.1.16 outside the repository and set SCHOOL_MCP_TEST_CONFORMANCE to its dist/index.js (.ci/run does)',
};

function nodeFits([wantMajor, wantMinor]: readonly [number, number]): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/**
 * A suite that runs `cli`. Where it cannot run, the suite is one test saying why: skipped on a
 * Node too old for the tool; without the tool skipped, or failed under `CI=true` (suite-gate.ts).
 * Its `beforeAll` then never runs, so it starts nothing.
 */
export function describeWithPinnedCli(cli: PinnedCli, name: string, body: () => void): void {
  if (nodeFits(cli.minimumNode) && cli.script !== undefined) {
    describe(name, body);
    return;
  }
  const title = `runs ${cli.what}`;
  describe(name, () => {
    if (nodeFits(cli.minimumNode)) {
      itNeeding({ available: false, what: cli.what, howToEnable: cli.howToEnable }, title, async () => undefined);
    } else {
      const [major, minor] = cli.minimumNode;
      it.skip(`${title} (skipped: it needs Node ${major}.${minor} or later, this is Node ${process.versions.node}; CI runs it on Node 22 and 24)`, () =>
        undefined);
    }
  });
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `cli` on this Node with `args`, in an environment of PATH and `home` only (its own state stays there). */
export function runPinnedCli(cli: PinnedCli, args: readonly string[], home: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.script!, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
