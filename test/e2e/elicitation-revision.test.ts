/**
 * URL-mode elicitation only on the protocol revisions that define it. A client that claims
 * `elicitation.url` on 2025-06-18 (which has form mode only) gets the link in the tool result
 * instead of an `elicitation/create` it cannot have agreed to; on 2025-11-25 it gets the request.
 * The real process over stdio, negotiated by hand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { initialize, spawnRaw } from '../helpers/raw-stdio.js';

let sandbox: RunningSandbox;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ autoApprove: false });
});

afterAll(async () => {
  await sandbox.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function firstAnswerToACall(revision: string): Promise<Record<string, any>> {
  const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-revision-'));
  dirs.push(configDir);
  const server = spawnRaw(configDir, [
    '--school',
    sandbox.url,
    '--no-browser',
    '--toolsets',
    'coupons',
    '--consent-wait',
    '5',
  ]);
  await initialize(server, revision, { elicitation: { url: {}, form: {} } });
  expect(await server.nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: revision } });
  server.writeLine(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_coupons', arguments: {} } }),
  );
  const answer = (await server.nextMessage()) as Record<string, any>;
  server.child.stdin.end();
  await server.exited;
  return answer;
}

describe('URL elicitation by protocol revision', () => {
  it.each(['2024-11-05', '2025-03-26', '2025-06-18'])(
    'shows the link in the tool result on %s although the client claims url mode',
    async (revision) => {
      const answer = await firstAnswerToACall(revision);
      expect(answer['method']).toBeUndefined();
      expect(answer).toMatchObject({ id: 2, result: { isError: true } });
      expect(JSON.stringify(answer['result']['content'])).toContain(`${sandbox.url}/oauth/authorize?`);
    },
  );

  it('asks the client with a URL elicitation on 2025-11-25', async () => {
    const answer = await firstAnswerToACall('2025-11-25');
    expect(answer).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', url: expect.stringContaining(`${sandbox.url}/oauth/authorize?`) },
    });
  });
});
