/**
 * A second, independent MCP client against `school-mcp --hosted --demo`: the Python MCP SDK with
 * its own OAuth support, as a child process. Where python's `mcp` package is missing the suite
 * skips, saying how to install it; under CI=true it fails instead, so CI never passes by skipping.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF } from '../../src/sandbox/index.js';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { collectLines } from '../helpers/stderr-lines.js';
import { allowAtSchoolMcp, openConsent, returnFromSchool } from '../hosted/hosted-harness.js';

const PYTHON = process.env['PYTHON'] ?? 'python3';
const SCRIPT = resolve(import.meta.dirname, '../fixtures/python/hosted_client.py');
const HOW_TO_ENABLE = `python's mcp package is missing: pip install -r test/fixtures/python/requirements.txt`;
const hasPythonMcp = spawnSync(PYTHON, ['-c', 'import mcp.client.auth'], { stdio: 'ignore' }).status === 0;

function describeWithPython(name: string, body: () => void): void {
  if (hasPythonMcp) describe(name, body);
  else if (process.env['CI'] === 'true') describe(name, () => it('has the Python MCP SDK to run', () => {
    throw new Error(HOW_TO_ENABLE);
  }));
  else describe.skip(`${name} (skipped: ${HOW_TO_ENABLE})`, body);
}

let server: ChildProcess;
let mcpUrl: string;

describeWithPython('school-mcp --hosted with the Python MCP SDK client', () => {
  beforeAll(async () => {
    server = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    mcpUrl = /MCP endpoint: +(\S+)/.exec(await collectLines(server.stderr).waitForLine(/MCP endpoint:/))![1]!;
  });
  afterAll(async () => {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  });

  it('HOST-14 registers, passes both consents and calls the tools as the person picked', async () => {
    const alan = SANDBOX_STAFF[2]!;
    const python = spawn(PYTHON, [SCRIPT, mcpUrl], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout = collectLines(python.stdout);
    const stderr = collectLines(python.stderr);
    try {
      const authorize = (await stdout.waitForLine(/^AUTHORIZE /)).slice('AUTHORIZE '.length);
      const browser = new CookieBrowser();
      const { consentUrl, csrf } = await openConsent(browser, new URL(authorize));
      const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', { user: alan.sub });
      const { url } = await returnFromSchool(browser, callback);
      python.stdin!.write(`${url.href}\n`);
      const result = JSON.parse((await stdout.waitForLine(/^RESULT /)).slice('RESULT '.length)) as { tools: string[]; who_am_i: string };
      expect(result.tools).toContain('who_am_i');
      expect(result.who_am_i).toContain(alan.name);
    } catch (error) {
      throw new Error(`${String(error)}\npython stderr:\n${stderr.stderr.join('\n')}`);
    } finally {
      python.kill();
    }
  });
});
