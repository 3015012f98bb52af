/**
 * The Python MCP SDK's client (test/fixtures/python/hosted_client.py) against a hosted
 * school-mcp, as a child process: it prints the authorization URL, the test walks both consents
 * with the cookie browser as the staff member picked, hands the redirect back, and the client
 * lists the tools and calls who_am_i; a kept client (`startPythonClient`) then calls tools on
 * request and signs in again when the SDK asks. Where python's `mcp` package is missing a suite skips,
 * saying how to install it; under CI=true it fails instead, so CI never passes by skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { StaffMember } from '@school-mcp/sandbox';
import { approveSignIn } from '../app/support/hosted-harness.js';
import { collectLines } from './stderr-lines.js';
import { describeNeeding, itNeeding, type Prerequisite } from './suite-gate.js';

const PYTHON = process.env['PYTHON'] ?? 'python3';
const SCRIPT = resolve(import.meta.dirname, '../fixtures/python/hosted_client.py');
// Asks the installed package's metadata: importing the SDK to see whether it is there took a
// second or more of CPU in each file that imports this helper.
const INSTALLED_MCP = "import importlib.metadata; importlib.metadata.version('mcp')";
const PYTHON_MCP: Prerequisite = {
  available: spawnSync(PYTHON, ['-c', INSTALLED_MCP], { stdio: 'ignore' }).status === 0,
  what: 'the Python MCP SDK to run',
  howToEnable: `python's mcp package is missing: pip install -r test/fixtures/python/requirements.txt`,
};

/** A suite that needs the Python MCP SDK. */
export function describeWithPython(name: string, body: () => void): void {
  describeNeeding(PYTHON_MCP, name, body);
}

/** One test that needs the Python MCP SDK, in a suite that does not. */
export function itWithPython(name: string, body: () => Promise<void>): void {
  itNeeding(PYTHON_MCP, name, body);
}

export interface PythonClientResult {
  readonly tools: string[];
  readonly who_am_i: string;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** Signs `member` in through the Python client at `mcpUrl` and returns what it saw; its stderr joins any failure. */
export async function runPythonClient(mcpUrl: string, member: StaffMember): Promise<PythonClientResult> {
  const client = await startPythonClient(mcpUrl, member);
  await client.close();
  return client.result;
}

/** One tool call's answer: the result, or what the SDK raised. */
type PythonCallOutcome =
  | { readonly kind: 'called'; readonly isError: boolean; readonly text: string }
  | { readonly kind: 'failed'; readonly error: string };

export interface PythonClient {
  /** What the first session saw. */
  readonly result: PythonClientResult;
  /** How many times the SDK sent the person to sign in, the first time included. */
  readonly signIns: number;
  /** Calls a tool; when the SDK signs in again on the way, the person approves as before. */
  call(name: string, args?: Record<string, unknown>): Promise<PythonCallOutcome>;
  /** A new MCP session with the tokens the client holds. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/** The Python client kept running after its first sign-in, for `member`. */
export async function startPythonClient(mcpUrl: string, member: StaffMember): Promise<PythonClient> {
  const python = spawn(PYTHON, [SCRIPT, mcpUrl], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout = collectLines(python.stdout);
  const stderr = collectLines(python.stderr);
  let signIns = 0;
  const withStderr = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      throw new Error(`${String(error)}\npython stderr:\n${stderr.stderr.join('\n')}`);
    }
  };
  /** The next line among `answers`, signing the person in whenever the SDK asks first. */
  const answer = async (answers: RegExp): Promise<string> => {
    for (;;) {
      const line = await stdout.waitForLine(new RegExp(`^AUTHORIZE |${answers.source}`));
      if (!line.startsWith('AUTHORIZE ')) return line;
      signIns += 1;
      python.stdin!.write(`${(await approveSignIn(line.slice('AUTHORIZE '.length), member.sub)).href}\n`);
    }
  };
  const close = async () => {
    const done = exited(python);
    python.kill();
    await done;
  };
  try {
    const result = JSON.parse(
      (await withStderr(() => answer(/^RESULT /))).slice('RESULT '.length),
    ) as PythonClientResult;
    return {
      result,
      get signIns() {
        return signIns;
      },
      call: (name, args = {}) =>
        withStderr(async () => {
          python.stdin!.write(`CALL ${name} ${JSON.stringify(args)}\n`);
          const line = await answer(/^(CALLED|FAILED) /);
          const body = JSON.parse(line.slice(line.indexOf(' ') + 1)) as {
            isError?: boolean;
            text?: string;
            error?: string;
          };
          return line.startsWith('CALLED ')
            ? { kind: 'called', isError: body.isError === true, text: body.text ?? '' }
            : { kind: 'failed', error: body.error ?? '' };
        }),
      reconnect: () =>
        withStderr(async () => {
          python.stdin!.write('RECONNECT\n');
          await answer(/^CONNECTED$/);
        }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
