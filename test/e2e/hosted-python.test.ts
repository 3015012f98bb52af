/**
 * A second, independent MCP client against `school-mcp --hosted --demo`: the Python MCP SDK with
 * its own OAuth support, as a child process (`test/helpers/python-mcp-client.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { describeWithPython, runPythonClient } from '../helpers/python-mcp-client.js';
import { collectLines } from '../helpers/stderr-lines.js';

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
    const result = await runPythonClient(mcpUrl, alan);
    expect(result.tools).toContain('who_am_i');
    expect(result.who_am_i).toContain(alan.name);
  });
});
