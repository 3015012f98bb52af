/**
 * The catalogue cache end to end: school-mcp started twice on one config directory lists the
 * same tools, and the second start says (at debug) that it read the cached catalogue instead of
 * building it; once against the sandbox school's document, once against a corpus file, and once
 * when the host closes the first start as soon as it has listed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { startStdioServer } from '../helpers/mcp-stdio.js';

const CORPUS_FILE = join(import.meta.dirname, '../fixtures/openapi/sume-lms-course.swagger.json');

let sandbox: RunningSandbox;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({});
});

afterAll(async () => {
  await sandbox.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** One start: its first tools/list, after the catalogue is cached when `awaitStored`. */
async function startAndList(configDir: string, args: readonly string[], awaitStored: boolean) {
  const server = await startStdioServer({
    configDir,
    args: ['--school', sandbox.url, '--no-browser', '--log-level', 'debug', ...args],
  });
  try {
    const { tools } = await server.client.listTools();
    if (awaitStored) await server.waitForLine(/cached the tool catalogue \(\d+ operations/);
    return { tools, stderr: [...server.stderr] };
  } finally {
    await server.close();
  }
}

async function twoStarts(args: readonly string[], { firstAwaitsStore = true } = {}) {
  const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-catalogue-'));
  dirs.push(configDir);
  const first = await startAndList(configDir, args, firstAwaitsStore);
  const second = await startAndList(configDir, args, false);
  return { first, second };
}

describe('a restart on the same document', () => {
  it('lists the same tools from the cached catalogue, and says so at debug', async () => {
    const { first, second } = await twoStarts([]);
    expect(first.stderr.join('\n')).toMatch(/no cached tool catalogue for this document; building it/);
    expect(second.stderr.join('\n')).toMatch(/used the cached tool catalogue \(\d+ operations\)/);
    expect(second.stderr.join('\n')).not.toMatch(/cached the tool catalogue/);
    expect(second.tools.length).toBeGreaterThan(5);
    expect(second.tools).toEqual(first.tools);
  });

  it('is read by the next start even when the host closed the first one right after its list', async () => {
    // A host that starts a server for a few calls: the first start is still storing when its input closes.
    const { first, second } = await twoStarts([], { firstAwaitsStore: false });
    expect(first.stderr.join('\n')).toMatch(/no cached tool catalogue for this document; building it/);
    expect(second.stderr.join('\n')).toMatch(/used the cached tool catalogue \(\d+ operations\)/);
    expect(second.tools).toEqual(first.tools);
  });

  it('does the same for a Swagger 2.0 file given with --openapi, and still says it was upgraded', async () => {
    const { first, second } = await twoStarts(['--openapi', CORPUS_FILE, '--toolsets', 'all']);
    expect(second.stderr.join('\n')).toMatch(/used the cached tool catalogue/);
    expect(second.stderr.join('\n')).toMatch(/upgraded to OpenAPI 3 in memory/);
    expect(second.tools.length).toBeGreaterThan(5);
    expect(second.tools).toEqual(first.tools);
  });
});
