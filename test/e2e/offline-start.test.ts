/**
 * A start while the school cannot be reached: the document's GET fails (nothing listens on the
 * school's port any more), and school-mcp serves the last good copy it kept, saying so, with the
 * same tools as the start that fetched it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '@school-mcp/sandbox';
import { startStdioServer } from '../helpers/mcp-stdio.js';

const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function listOnce(configDir: string, schoolUrl: string) {
  const server = await startStdioServer({ configDir, args: ['--school', schoolUrl, '--no-browser'] });
  try {
    return { tools: (await server.client.listTools()).tools, stderr: server.stderr };
  } finally {
    await server.close();
  }
}

describe('a start while the school is down', () => {
  it('serves the cached document, says it could not reach the school, and lists the same tools', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-offline-'));
    dirs.push(configDir);
    const sandbox = await startSandbox({});
    // finally() waits for the close it returns (ECMA-262 27.2.5.3); lib.d.ts types it as void.
    // oxlint-disable-next-line typescript/no-misused-promises
    const online = await listOnce(configDir, sandbox.url).finally(() => sandbox.close());
    const offline = await listOnce(configDir, sandbox.url);
    expect(offline.stderr.join('\n')).toMatch(/the school could not be reached; using the cached API description/);
    // The cause is named. Usually nothing listens on the freed port (ECONNREFUSED); with the suite's
    // other files starting servers meanwhile, another one may have taken it and hung up (seen under load).
    expect(offline.stderr.join('\n')).toMatch(
      /could not be reached \((?:.*ECONNREFUSED.*|.*ECONNRESET.*|socket hang up)\)/,
    );
    expect(offline.tools).toEqual(online.tools);
  });
});
