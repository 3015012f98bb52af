/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector` 2.x, `--cli`) as a child process
 * against the hosted server and sandbox school on 127.0.0.1, with a bearer token a person's
 * sign-in gave: it lists the tools and calls one as that person, and without a token it is refused
 * with the sign-in it would need. The Inspector needs Node 22.19 or later and is installed outside
 * the repository (test/helpers/pinned-cli.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { describeWithPinnedCli, INSPECTOR_CLI, runPinnedCli, type CliRun } from '../helpers/pinned-cli.js';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from '../app/support/hosted-harness.js';

describeWithPinnedCli(INSPECTOR_CLI, 'the MCP Inspector CLI against school-mcp --hosted', () => {
  let hosted: Hosted;
  let home: string;
  beforeAll(async () => {
    hosted = await startHosted({ tools: true });
    home = await mkdtemp(join(tmpdir(), 'school-mcp-inspector-'));
  });
  afterAll(async () => {
    await hosted?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /** The CLI, its catalogue and secrets in a throw-away home. */
  function inspector(args: readonly string[]): Promise<CliRun> {
    return runPinnedCli(INSPECTOR_CLI, ['--cli', ...args, '--format', 'json'], home);
  }

  it('HOST-27 lists the tools and calls who_am_i as the person whose bearer token it sends, and is refused without one', async () => {
    const ada = SANDBOX_STAFF[0]!;
    const client = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const token = String((await exchange(hosted.base, client, code, verifier)).body.access_token);
    const mcpUrl = `${hosted.base}/mcp`;
    const authorization = ['--header', `Authorization: Bearer ${token}`];

    const listed = await inspector([mcpUrl, '--method', 'tools/list', ...authorization]);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = (JSON.parse(listed.stdout) as { result: { tools: { name: string }[] } }).result.tools.map(
      (tool) => tool.name,
    );
    expect(tools).toContain('who_am_i');

    const called = await inspector([mcpUrl, '--method', 'tools/call', '--tool-name', 'who_am_i', ...authorization]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain(ada.name);

    // No token: the server's 401 sends it to its own OAuth sign-in, which needs a person at a terminal.
    const refused = await inspector([mcpUrl, '--method', 'tools/list', '--connect-timeout', '30000']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/auth/i);
    expect(refused.stdout).not.toContain('who_am_i');
  });
});
