/**
 * How many MCP connections a hosted instance holds, against the real hosted server, sandbox school
 * and 2025-11-25 event streams on 127.0.0.1, with small limits: one person's many connections
 * replace only their own, and a full instance refuses newcomers instead of ending anyone's stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { exchange, registerMcpClient, signIn, startHosted, type Hosted } from '../app/support/hosted-harness.js';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted({ tools: true, callers: { maxCallers: 4, maxCallersPerPerson: 2 } });
});
afterAll(async () => {
  await hosted.close();
});

const [ada, grace, alan] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!, SANDBOX_STAFF[2]!];
const streams: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterAll(async () => {
  for (const reader of streams) await reader.cancel().catch(() => undefined);
});

/** A new connection of `user`: a client registered and signed in, and its access token. */
async function connection(user: string): Promise<string> {
  const client = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, client, user);
  return String((await exchange(hosted.base, client, code, verifier)).body.access_token);
}

function post(token: string, message: Record<string, unknown>, sessionId?: string): Promise<Response> {
  return fetch(`${hosted.base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

/** A 2025-11-25 session of this connection with its GET event stream open; the answer when refused. */
async function openStream(token: string): Promise<{ sessionId: string; ended: () => Promise<boolean> } | Response> {
  const initialize = await post(token, {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
  });
  if (initialize.status !== 200) return initialize;
  await initialize.body?.cancel();
  const sessionId = initialize.headers.get('mcp-session-id')!;
  await (await post(token, { method: 'notifications/initialized' }, sessionId)).body?.cancel();
  const stream = await fetch(`${hosted.base}/mcp`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
  });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  streams.push(reader);
  let done = false;
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
    done = true;
  })();
  return {
    sessionId,
    // Whether the stream has ended, asked after a round trip to the server: an eviction ends the
    // stream as it happens, seconds before the question in these cases, so its end has arrived by then.
    ended: async () => {
      await (await post(token, { id: 9, method: 'ping' }, sessionId)).body?.cancel();
      return done;
    },
  };
}

describe('HOST-46 connections per person', () => {
  it("HOST-46 lets one person's many connections replace only their own, never another person's open event stream", async () => {
    const graceToken = await connection(grace.sub);
    const graceStream = await openStream(graceToken);
    if (graceStream instanceof Response) throw new Error(`Grace's stream was refused (${graceStream.status})`);
    // Twice as many connections of Ada's as the instance holds callers.
    for (let index = 0; index < 8; index += 1) {
      const answer = await post(await connection(ada.sub), {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
      });
      expect(answer.status).toBe(200);
      await answer.body?.cancel();
    }
    expect(await graceStream.ended()).toBe(false);
    const call = await post(
      graceToken,
      { id: 2, method: 'tools/call', params: { name: 'who_am_i', arguments: {} } },
      graceStream.sessionId,
    );
    expect(call.status).toBe(200);
    expect(await call.text()).toContain(grace.name);
  });

  it('HOST-46 refuses a newcomer when every place is busy (503), and a person whose whole share is busy (429), with Retry-After, ending nobody', async () => {
    // Grace's stream from the case before holds one place; Ada's two connections and Alan's fill the rest.
    const held = [];
    for (const user of [ada.sub, ada.sub, alan.sub]) {
      const opened = await openStream(await connection(user));
      if (opened instanceof Response) throw new Error(`a stream was refused (${opened.status})`);
      held.push(opened);
    }
    const full = await openStream(await connection(alan.sub));
    expect(full).toBeInstanceOf(Response);
    expect((full as Response).status).toBe(503);
    expect((full as Response).headers.get('retry-after')).toBe('5');
    const overShare = await openStream(await connection(ada.sub));
    expect((overShare as Response).status).toBe(429);
    for (const stream of held) expect(await stream.ended()).toBe(false);
  });
});
