/**
 * undici, which carries every API call, is loaded on first use so that a start does not wait for
 * it; once the host has its tool list, the server loads it while idle, so that the first call does
 * not wait for it either. The child runs with the module-hook fixture that logs what it resolves.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { startStdioServer } from '../helpers/mcp-stdio.js';

const RECORDER = pathToFileURL(resolve(import.meta.dirname, 'support/record-resolved-modules.mjs')).href;

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({});
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-warm-up-'));
});

afterAll(async () => {
  await sandbox?.close();
  await rm(workDir, { recursive: true, force: true });
});

const resolvedUndici = async (logFile: string) =>
  (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((url) => url.includes('/node_modules/undici/'));

describe('the HTTP client is loaded once the tools are listed', () => {
  it('a server that has answered tools/list loads undici without any call, and sends nothing to load it', async () => {
    const logFile = join(workDir, 'listed.log');
    const server = await startStdioServer({
      args: ['--school', sandbox.url, '--no-browser'],
      env: { NODE_OPTIONS: `--import=${RECORDER}`, SCHOOL_MCP_TEST_RESOLVED_LOG: logFile },
    });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      await vi.waitFor(async () => expect(await resolvedUndici(logFile)).not.toEqual([]), {
        timeout: 10_000,
        interval: 50,
      });
      // Loading it sends nothing: the start fetched the API description, and that is all.
      expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /openapi.json']);
    } finally {
      await server.close();
    }
  });
});
