/**
 * The Python MCP SDK's client (test/fixtures/python/hosted_client.py) against a hosted
 * school-mcp, as a child process: it prints the authorization URL, the test walks both consents
 * with the cookie browser as the staff member picked, hands the redirect back, and the client
 * lists the tools and calls who_am_i. Where python's `mcp` package is missing a suite skips,
 * saying how to install it; under CI=true it fails instead, so CI never passes by skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { completeConsent, type StaffMember } from '../../src/sandbox/index.js';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { allowAtSchoolMcp, openConsent, returnFromSchool } from '../hosted/hosted-harness.js';
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
  const python = spawn(PYTHON, [SCRIPT, mcpUrl], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout = collectLines(python.stdout);
  const stderr = collectLines(python.stderr);
  try {
    const authorize = (await stdout.waitForLine(/^AUTHORIZE /)).slice('AUTHORIZE '.length);
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, new URL(authorize));
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user: member.sub });
    const { url } = await returnFromSchool(browser, callback);
    python.stdin!.write(`${url.href}\n`);
    return JSON.parse((await stdout.waitForLine(/^RESULT /)).slice('RESULT '.length)) as PythonClientResult;
  } catch (error) {
    throw new Error(`${String(error)}\npython stderr:\n${stderr.stderr.join('\n')}`);
  } finally {
    const done = exited(python);
    python.kill();
    await done;
  }
}
