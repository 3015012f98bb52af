/**
 * The protocol surface over a real listener, with the SDK's own client on both protocol eras:
 * what is refused before parsing, how 2025-11-25 sessions behave, that concurrent clients with
 * colliding JSON-RPC ids each get their own answers, and that progress and URL elicitation
 * reach the client over the response stream.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeptSessions } from '../../src/transports/kept-sessions.js';
import { sdkEraName } from '../helpers/mcp-server.js';
import { CONSENT_URL, startEchoEndpoint, type EchoEndpoint } from './support/echo-endpoint.js';
import { exchange, INITIALIZE, jsonRpcHeaders } from './support/raw-http.js';
import { MAX_REQUEST_BODY_BYTES } from '../../src/transports/http-limits.js';

type Era = 'sessionful' | 'stateless';
type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const endpoints: EchoEndpoint[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.handle.close()));
});

async function start(): Promise<EchoEndpoint> {
  const endpoint = await startEchoEndpoint();
  endpoints.push(endpoint);
  return endpoint;
}

interface Connected {
  readonly client: Client;
  /** The JSON-RPC request ids this client put on the wire. */
  readonly sentIds: (string | number)[];
  /** The `Mcp-Session-Id` values the server answered with. */
  readonly sessionIds: Set<string>;
}

async function connect(endpoint: EchoEndpoint, era: Era): Promise<Connected> {
  const sentIds: (string | number)[] = [];
  const sessionIds = new Set<string>();
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    if (typeof init?.body === 'string') {
      const messages = [JSON.parse(init.body)].flat() as { id?: string | number; method?: string }[];
      for (const message of messages)
        if (message.id !== undefined && message.method !== undefined) sentIds.push(message.id);
    }
    const response = await fetch(input, init);
    const session = response.headers.get('mcp-session-id');
    if (session) sessionIds.add(session);
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.handle.url), {
    requestInit: { headers: { authorization: `Bearer ${endpoint.secret}` } },
    fetch: recordingFetch,
  });
  const client = new Client(
    { name: 'http-protocol-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { url: {} } },
      ...(era === 'stateless' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  await client.connect(transport);
  clients.push(client);
  return { client, sentIds, sessionIds };
}

describe('HTTP-06 protocol surface', () => {
  it.each(['PUT', 'PATCH'])('HTTP-06 answers %s with 405', async (method) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      method,
      headers: jsonRpcHeaders(endpoint.secret),
      body: INITIALIZE,
    });
    expect(answer.status).toBe(405);
  });

  it.each(['GET', 'DELETE'])('HTTP-06 answers %s without a session with 405', async (method) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, { method, headers: jsonRpcHeaders(endpoint.secret) });
    expect(answer.status).toBe(405);
    expect(endpoint.counters.toolCalls).toBe(0);
  });

  it('HTTP-06 answers a wrong Content-Type with 415 and a wrong Accept with 406', async () => {
    const endpoint = await start();
    const plain = await exchange(endpoint.port, {
      headers: jsonRpcHeaders(endpoint.secret, { 'content-type': 'text/plain' }),
      body: INITIALIZE,
    });
    expect(plain.status).toBe(415);
    const html = await exchange(endpoint.port, {
      headers: jsonRpcHeaders(endpoint.secret, { accept: 'text/html' }),
      body: INITIALIZE,
    });
    expect(html.status).toBe(406);
  });

  it('HTTP-06 answers invalid JSON with 400 and a JSON-RPC parse error', async () => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      headers: jsonRpcHeaders(endpoint.secret),
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('HTTP-06 answers a body over 1 MiB with 413 before parsing, declared or streamed', async () => {
    const endpoint = await start();
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":"${'x'.repeat(MAX_REQUEST_BODY_BYTES)}"}}}`;
    const declared = await exchange(endpoint.port, { headers: jsonRpcHeaders(endpoint.secret), body: big });
    expect(declared.status).toBe(413);
    const streamed = await exchange(endpoint.port, {
      headers: jsonRpcHeaders(endpoint.secret, { 'transfer-encoding': 'chunked' }),
      body: big,
    });
    expect(streamed.status).toBe(413);
    expect(endpoint.counters).toEqual({ servers: 0, toolCalls: 0 });
  });

  it('HTTP-06 mints 2025-11-25 session ids of at least 128 random bits, one per session', async () => {
    const endpoint = await start();
    const ids = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const answer = await exchange(endpoint.port, { headers: jsonRpcHeaders(endpoint.secret), body: INITIALIZE });
      const id = answer.headers['mcp-session-id'];
      expect(typeof id).toBe('string');
      expect(Buffer.from(id as string, 'base64url').length).toBeGreaterThanOrEqual(16);
      ids.add(id as string);
    }
    expect(ids.size).toBe(3);
  });

  it('HTTP-06 a valid session id without the secret, or with a wrong one, is refused; an unknown one is 404', async () => {
    const endpoint = await start();
    const init = await exchange(endpoint.port, { headers: jsonRpcHeaders(endpoint.secret), body: INITIALIZE });
    const session = init.headers['mcp-session-id'] as string;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const withSession = (secret: string | undefined, id = session) =>
      exchange(endpoint.port, {
        headers: jsonRpcHeaders(secret, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }),
        body: list,
      });
    expect((await withSession(undefined)).status).toBe(401);
    expect((await withSession('not-the-secret-but-long-enough')).status).toBe(401);
    expect((await withSession(endpoint.secret, 'A'.repeat(32))).status).toBe(404);
    expect((await withSession(endpoint.secret)).status).toBe(200);
  });

  it('HTTP-06 a session answers only to the caller that opened it', async () => {
    let servers = 0;
    const sessions = createKeptSessions({
      createServer: () => {
        servers += 1;
        return new McpServer({ name: 's', version: '1' });
      },
      maxSessions: 4,
      onerror: () => undefined,
    });
    try {
      const init = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: jsonRpcHeaders(undefined),
        body: INITIALIZE,
      });
      const opened = await sessions.handle(init, 'caller-a');
      const id = opened.headers.get('mcp-session-id')!;
      const list = () =>
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: jsonRpcHeaders(undefined, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }),
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        });
      expect((await sessions.handle(list(), 'caller-b')).status).toBe(404);
      expect((await sessions.handle(list(), 'caller-a')).status).toBe(200);
      expect(servers).toBe(1);
    } finally {
      await sessions.closeAll();
    }
  });

  it('HTTP-06 keeps at most the configured number of sessions, dropping the least recently used', async () => {
    const sessions = createKeptSessions({
      createServer: () => new McpServer({ name: 's', version: '1' }),
      maxSessions: 2,
      onerror: () => undefined,
    });
    try {
      const open = async () => {
        const answer = await sessions.handle(
          new Request('http://127.0.0.1/mcp', { method: 'POST', headers: jsonRpcHeaders(undefined), body: INITIALIZE }),
          'caller',
        );
        return answer.headers.get('mcp-session-id')!;
      };
      const ping = (id: string) =>
        sessions.handle(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: jsonRpcHeaders(undefined, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }),
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
          }),
          'caller',
        );
      const first = await open();
      const second = await open();
      expect((await ping(first)).status).toBe(200);
      await open();
      expect(sessions.size).toBe(2);
      expect((await ping(second)).status).toBe(404);
      expect((await ping(first)).status).toBe(200);
    } finally {
      await sessions.closeAll();
    }
  });
});

describe.each<Era>(['sessionful', 'stateless'])('over the %s era with the SDK client', (era) => {
  it(`HTTP-07 two clients, 50 concurrent calls each with colliding ids: every answer is its own (${era})`, async () => {
    const endpoint = await start();
    const [alice, bob] = await Promise.all([connect(endpoint, era), connect(endpoint, era)]);
    expect(alice.client.getProtocolEra()).toBe(sdkEraName(era));
    const calls = (who: Connected, name: string) =>
      Array.from(
        { length: 50 },
        (_, i) => who.client.callTool({ name: 'echo', arguments: { value: `${name}-${i}` } }) as Promise<ToolResult>,
      );
    const [fromAlice, fromBob] = await Promise.all([
      Promise.all(calls(alice, 'alice')),
      Promise.all(calls(bob, 'bob')),
    ]);
    fromAlice.forEach((result, i) => expect(result.structuredContent).toEqual({ value: `alice-${i}` }));
    fromBob.forEach((result, i) => expect(result.structuredContent).toEqual({ value: `bob-${i}` }));
    const shared = alice.sentIds.filter((id) => bob.sentIds.includes(id));
    expect(shared.length).toBeGreaterThanOrEqual(50);
    expect(endpoint.counters.toolCalls).toBe(100);
    if (era === 'sessionful') {
      expect(alice.sessionIds.size).toBe(1);
      expect([...alice.sessionIds][0]).not.toBe([...bob.sessionIds][0]);
    } else {
      // HTTP-06: the 2026-07-28 era never mints a session.
      expect(alice.sessionIds.size + bob.sessionIds.size).toBe(0);
    }
  });

  it(`delivers progress over the response stream (${era})`, async () => {
    const endpoint = await start();
    const { client } = await connect(endpoint, era);
    const progress: number[] = [];
    const result = (await client.callTool(
      { name: 'count_up', arguments: {} },
      { onprogress: (update) => progress.push(update.progress) },
    )) as ToolResult;
    expect(result.content[0]!.text).toBe('counted');
    expect(progress).toEqual([1, 2, 3]);
  });

  it(`asks the client with a URL elicitation and finishes the same call with its answer (${era})`, async () => {
    const endpoint = await start();
    const { client } = await connect(endpoint, era);
    const asked: { mode?: string; url?: string }[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as { mode?: string; url?: string });
      return { action: 'accept' };
    });
    const result = (await client.callTool({ name: 'confirm', arguments: {} })) as ToolResult;
    expect(result.content[0]!.text).toBe('user said accept');
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: CONSENT_URL })]);
  });
});
