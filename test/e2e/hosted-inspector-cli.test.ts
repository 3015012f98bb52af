/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.x, `--cli`) as a child process
 * against the hosted server and sandbox school on 127.0.0.1, with a bearer token a person's
 * sign-in gave: it lists the tools and calls one as that person, and without a token it is refused
 * with the sign-in it would need. The Inspector needs Node 22.19 or later and is no dependency of
 * the project (its `engines` fails `npm ci` on Node 20 under `engine-strict`): CI installs the
 * pinned version outside the repository and names its launcher in `SCHOOL_MCP_TEST_INSPECTOR`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { itNeeding } from '../helpers/suite-gate.js';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from '../hosted/hosted-harness.js';

const INSPECTOR = process.env['SCHOOL_MCP_TEST_INSPECTOR'];
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const NODE_FITS = major > 22 || (major === 22 && minor >= 19);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('the MCP Inspector CLI against school-mcp --hosted', () => {
  let hosted: Hosted;
  let home: string;
  beforeAll(async () => {
    if (!NODE_FITS || INSPECTOR === undefined) return;
    hosted = await startHosted({ tools: true });
    home = await mkdtemp(join(tmpdir(), 'school-mcp-inspector-'));
  });
  afterAll(async () => {
    await hosted?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /** The CLI on this Node, its catalogue and secrets in a throw-away home. */
  function inspector(args: readonly string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [INSPECTOR!, '--cli', ...args, '--format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: home } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const name = 'HOST-27 lists the tools and calls who_am_i as the person whose bearer token it sends, and is refused without one';
  const body = async () => {
    const ada = SANDBOX_STAFF[0]!;
    const client = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const token = String((await exchange(hosted.base, client, code, verifier)).body.access_token);
    const mcpUrl = `${hosted.base}/mcp`;
    const authorization = ['--header', `Authorization: Bearer ${token}`];

    const listed = await inspector([mcpUrl, '--method', 'tools/list', ...authorization]);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = (JSON.parse(listed.stdout) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    expect(tools).toContain('who_am_i');

    const called = await inspector([mcpUrl, '--method', 'tools/call', '--tool-name', 'who_am_i', ...authorization]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain(ada.name);

    // No token: the server's 401 sends it to its own OAuth sign-in, which needs a person at a terminal.
    const refused = await inspector([mcpUrl, '--method', 'tools/list', '--connect-timeout', '30000']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/auth/i);
    expect(refused.stdout).not.toContain('who_am_i');
  };
  if (NODE_FITS) {
    itNeeding(
      { available: INSPECTOR !== undefined, what: 'the MCP Inspector CLI', howToEnable: 'install @modelcontextprotocol/inspector@2.12.0 outside the repository and set SCHOOL_MCP_TEST_INSPECTOR to its clients/launcher/build/index.js (.ci/run does)' },
      name,
      body,
    );
  } else {
    it.skip(`${name} (skipped: the MCP Inspector 2.x CLI needs Node 22.19 or later, this is Node ${process.versions.node}; CI runs it on Node 22 and 24)`, body);
  }
});
