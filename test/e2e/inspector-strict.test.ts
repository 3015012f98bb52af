/**
 * The MCP Inspector's CLI (2.x) with `--strict` starts `school-mcp` over stdio on a sandbox
 * school and lists its tools: `--strict` reports, on stderr, every tool schema that some host
 * would mishandle (several types in one schema, a schema that constrains nothing). The default
 * listing must give none. Warnings alone leave the exit code 0, so the test reads stderr.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { describeWithPinnedCli, INSPECTOR_CLI, runPinnedCli } from '../helpers/pinned-cli.js';

describeWithPinnedCli(INSPECTOR_CLI, 'the MCP Inspector CLI with --strict against school-mcp over stdio', () => {
  let sandbox: RunningSandbox;
  let home: string;
  beforeAll(async () => {
    sandbox = await startSandbox({});
    home = await mkdtemp(join(tmpdir(), 'school-mcp-inspector-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('tools/list at default settings: exit 0 and not one schema warning', async () => {
    const run = await runPinnedCli(
      INSPECTOR_CLI,
      [
        '--cli',
        '--method',
        'tools/list',
        '--strict',
        process.execPath,
        MAIN_JS,
        '--config-dir',
        home,
        '--school',
        sandbox.url,
      ],
      home,
    );
    expect(run.code, run.stderr).toBe(0);
    const tools = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(tools).toContain('who_am_i');
    // Each finding is a "Warning: tool ..." block, then a count line ("0 errors, 2 warnings across 1 tool.").
    expect(run.stderr).not.toMatch(/warning|error/i);
  });
});
