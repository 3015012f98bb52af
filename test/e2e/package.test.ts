/**
 * What a user gets from the registry: the packed tarball, run with npx, starts and serves MCP
 * over stdio against a sandbox started by the packed code itself (`--demo`).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
let workDir: string;
let tarball: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-pack-'));
  // dist/ is already built by `pretest`; rebuilding it here would race the other end-to-end
  // tests that run the same files.
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', workDir], { cwd: root });
  tarball = join(workDir, (await readdir(workDir)).find((name) => name.endsWith('.tgz'))!);
}, 120_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('runs with npx and prints its version', async () => {
    const { stdout } = await run('npx', ['--yes', `--package=${tarball}`, 'school-mcp', '--version'], { cwd: workDir });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 120_000);

  it('ships no tests, tools or source maps', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/src/main.js');
    expect(files.filter((file) => /\/test\/|\/tools\/|\.map$/.test(file))).toEqual([]);
  });

  it('serves the sandbox school over stdio with --demo', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--yes', `--package=${tarball}`, 'school-mcp', '--demo', '--no-browser', '--config-dir', workDir],
      cwd: workDir,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['who_am_i', 'list_courses']));
    } finally {
      await client.close();
    }
  }, 120_000);
});
