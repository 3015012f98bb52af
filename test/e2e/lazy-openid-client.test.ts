/**
 * openid-client (with oauth4webapi and jose) is loaded on first use: a stdio start that only lists
 * tools never resolves a module of theirs, and a sign-in through the running server still works.
 * The child runs with a preloaded module-hook fixture that logs every URL it resolves.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

const RECORDER = pathToFileURL(resolve(import.meta.dirname, 'support/record-resolved-modules.mjs')).href;
const OAUTH_LIBRARIES = ['/openid-client/', '/oauth4webapi/', '/jose/'];

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({});
  workDir = await mkdtemp(join(tmpdir(), 'school-mcp-lazy-oidc-'));
});

afterAll(async () => {
  await sandbox?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** A stdio server that logs what it resolves to `logFile`, and whose client approves every URL elicitation. */
async function recordedServer(logFile: string): Promise<StdioServer> {
  const server = await startStdioServer({
    args: ['--school', sandbox.url, '--no-browser'],
    capabilities: { elicitation: { url: {} } },
    env: { NODE_OPTIONS: `--import=${RECORDER}`, SCHOOL_MCP_TEST_RESOLVED_LOG: logFile },
  });
  server.client.setRequestHandler('elicitation/create', async (request) => {
    const { url } = request.params as { url: string };
    await (await fetch(await completeConsent(url, 'allow'))).text();
    return { action: 'accept' };
  });
  return server;
}

async function resolvedUrls(logFile: string): Promise<string[]> {
  return (await readFile(logFile, 'utf8')).split('\n').filter((line) => line !== '');
}

const oauthLibraryUrls = (urls: readonly string[]) =>
  urls.filter((url) => OAUTH_LIBRARIES.some((part) => url.includes(part)));

describe('openid-client is loaded on first use', () => {
  it('a start that lists tools resolves no module of openid-client, oauth4webapi or jose', async () => {
    const logFile = join(workDir, 'list-only.log');
    const server = await recordedServer(logFile);
    try {
      const { tools } = await server.client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
    const urls = await resolvedUrls(logFile);
    // The recorder saw the start: the bin itself, and the imports it made (the SDK is written into it).
    expect(urls.some((url) => url.endsWith('/dist/bin/school-mcp.js'))).toBe(true);
    expect(urls).toContain('node:crypto');
    expect(oauthLibraryUrls(urls)).toEqual([]);
  });

  it('a tool call that needs a sign-in loads it then, and the call succeeds', async () => {
    const logFile = join(workDir, 'signed-in.log');
    const server = await recordedServer(logFile);
    try {
      const result = (await server.client.callTool({ name: 'get_school', arguments: {} })) as {
        isError?: boolean;
        content?: { text?: string }[];
      };
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    } finally {
      await server.close();
    }
    expect(oauthLibraryUrls(await resolvedUrls(logFile)).some((url) => url.includes('/openid-client/'))).toBe(true);
  });
});
