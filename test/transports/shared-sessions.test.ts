/**
 * Two "instances" of the 2025-11-25 sessions in one process, sharing a store and the in-process
 * bus, driven with raw requests: the relay rules without processes, load balancer or Redis (the
 * e2e suite test/e2e/hosted-sessions.test.ts runs them on all of those).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../src/grant-store/index.js';
import { createKeptSessions, type KeptSessions } from '../../src/transports/kept-sessions.js';
import { SESSION_NAMESPACE } from '../../src/transports/session-record.js';
import type { SessionSharing } from '../../src/transports/shared-session.js';

type Fields = { readonly [field: string]: unknown };

function memoryStore() {
  const records = new Map<string, Fields>();
  return {
    records,
    read: async (namespace: string, name: string) => records.get(`${namespace}/${name}`),
    write: async (namespace: string, name: string, value: Fields) =>
      void records.set(`${namespace}/${name}`, JSON.parse(JSON.stringify(value)) as Fields),
    remove: async (namespace: string, name: string) => void records.delete(`${namespace}/${name}`),
  };
}

function createServer(): McpServer {
  const server = new McpServer({ name: 'relay-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('whoami-client', { description: 'what the client said at initialize' }, async () => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          client: server.server.getClientVersion(),
          capabilities: server.server.getClientCapabilities(),
          version: server.server.getNegotiatedProtocolVersion(),
        }),
      },
    ],
  }));
  server.registerTool('ask', { description: 'asks the client a question' }, async (context) => {
    // As the hosted step-up asks: the SDK sends it on the session's GET stream.
    const answer = await context.mcpReq.elicitInput({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return { content: [{ type: 'text', text: `answer: ${JSON.stringify(answer.content ?? answer.action)}` }] };
  });
  return server;
}

interface Instance {
  readonly sessions: KeptSessions;
  readonly published: Fields[];
}

function twoInstances(): { a: Instance; b: Instance; store: ReturnType<typeof memoryStore> } {
  const store = memoryStore();
  const bus = createInProcessBus();
  const make = (name: string): Instance => {
    const published: Fields[] = [];
    const sharing: SessionSharing = {
      store,
      bus: {
        publish: async (channel, message) => {
          published.push(message);
          await bus.publish(channel, message);
        },
        subscribe: (channel, handler) => bus.subscribe(channel, handler),
      },
      instance: name,
    };
    return {
      sessions: createKeptSessions({ createServer, maxSessions: 8, onerror: () => undefined, sharing }),
      published,
    };
  };
  return { a: make('a'), b: make('b'), store };
}

function post(body: unknown, sessionId?: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(body),
  });
}

function getStream(sessionId: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'GET',
    headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
  });
}

/** The JSON-RPC messages of an SSE response, read until `until` matches one (or the stream ends). */
async function readEvents(response: Response, until: (message: Fields) => boolean): Promise<Fields[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Fields[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    for (const event of events) {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      if (data === undefined) continue;
      const message = JSON.parse(data.slice('data: '.length)) as Fields;
      messages.push(message);
      if (until(message)) {
        reader.releaseLock();
        return messages;
      }
    }
  }
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: 'relay-client', version: '4.5.6' },
  },
};

async function openSession(instance: Instance, caller: string): Promise<string> {
  const response = await instance.sessions.handle(post(initialize), caller);
  expect(response.status).toBe(200);
  await readEvents(response, (message) => message.id === 1);
  const id = response.headers.get('mcp-session-id')!;
  expect(
    (await instance.sessions.handle(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id), caller)).status,
  ).toBe(202);
  return id;
}

const resultText = (message: Fields | undefined) =>
  ((message?.result as { content?: { text: string }[] } | undefined)?.content ?? []).map((item) => item.text).join('');

describe('2025-11-25 sessions shared between instances', () => {
  it('SCL-30 makes the session again on another instance from its record, with what the client said at initialize and no new handshake', async () => {
    const { a, b, store } = twoInstances();
    const id = await openSession(a, 'ada');
    expect([...store.records.keys()]).toEqual([`${SESSION_NAMESPACE}/${id}`]);
    expect(b.sessions.size).toBe(0);
    const answer = await b.sessions.handle(
      post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami-client', arguments: {} } }, id),
      'ada',
    );
    expect(answer.status).toBe(200);
    const [message] = await readEvents(answer, (event) => event.id === 2);
    expect(JSON.parse(resultText(message))).toEqual({
      client: { name: 'relay-client', version: '4.5.6' },
      capabilities: { elicitation: { form: {} } },
      version: '2025-11-25',
    });
    expect(b.sessions.size).toBe(1);
  });

  it("SCL-31 answers another caller's request on the session with the 404 of an unknown one, making no copy and relaying nothing", async () => {
    const { a, b } = twoInstances();
    const id = await openSession(a, 'ada');
    for (const body of [
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 'x.0', result: { action: 'accept' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
    ]) {
      const refused = await b.sessions.handle(post(body, id), 'mallory');
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual(
        (await (await b.sessions.handle(post(body, 'no-such-session'), 'mallory')).json()) as unknown,
      );
    }
    expect((await a.sessions.handle(post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, id), 'mallory')).status).toBe(
      404,
    );
    expect(b.sessions.size).toBe(0);
    expect(b.published).toEqual([]);
  });

  it('SCL-33 writes the question of one instance on the GET stream another holds, and relays the answer posted there to the copy that asked, which finishes the same call with it', async () => {
    const { a, b } = twoInstances();
    const id = await openSession(a, 'ada');
    const stream = await b.sessions.handle(getStream(id), 'ada');
    expect(stream.status).toBe(200);
    const call = await a.sessions.handle(
      post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', arguments: {} } }, id),
      'ada',
    );
    const [question] = await readEvents(stream, (message) => message.method === 'elicitation/create');
    expect(a.published).toEqual([expect.objectContaining({ kind: 'to-stream', from: 'a' })]);
    expect(question!.id).toMatch(/^[A-Za-z0-9_-]+\.0$/);
    const relayed = await b.sessions.handle(
      post({ jsonrpc: '2.0', id: question!.id, result: { action: 'accept', content: { name: 'Ada' } } }, id),
      'ada',
    );
    expect(relayed.status).toBe(202);
    expect(b.published).toEqual([expect.objectContaining({ kind: 'to-server', from: 'b' })]);
    const rest = await readEvents(call, (message) => message.id === 7);
    expect(resultText(rest.at(-1))).toBe('answer: {"name":"Ada"}');
  });

  it('SCL-33 does not relay an answer over the size bound', async () => {
    const { a, b } = twoInstances();
    const id = await openSession(a, 'ada');
    const stream = await b.sessions.handle(getStream(id), 'ada');
    const call = await a.sessions.handle(
      post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', arguments: {} } }, id),
      'ada',
    );
    const [question] = await readEvents(stream, (message) => message.method === 'elicitation/create');
    await b.sessions.handle(
      post(
        { jsonrpc: '2.0', id: question!.id, result: { action: 'accept', content: { name: 'x'.repeat(40_000) } } },
        id,
      ),
      'ada',
    );
    expect(b.published).toEqual([]);
    await b.sessions.handle(
      post({ jsonrpc: '2.0', id: question!.id, result: { action: 'accept', content: { name: 'Ada' } } }, id),
      'ada',
    );
    const rest = await readEvents(call, (message) => message.id === 7);
    expect(resultText(rest.at(-1))).toBe('answer: {"name":"Ada"}');
  });

  it('SCL-32 ends the session on every instance when it is deleted on one, and a copy whose record is gone serves nothing more', async () => {
    const { a, b, store } = twoInstances();
    const id = await openSession(a, 'ada');
    expect((await b.sessions.handle(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, id), 'ada')).status).toBe(200);
    const deleted = await b.sessions.handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'DELETE',
        headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      }),
      'ada',
    );
    expect(deleted.status).toBe(200);
    expect(store.records.size).toBe(0);
    expect(b.published).toEqual([{ kind: 'closed', from: 'b' }]);
    const deadline = Date.now() + 5000;
    while (a.sessions.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(a.sessions.size).toBe(0);
    expect((await a.sessions.handle(post({ jsonrpc: '2.0', id: 3, method: 'ping' }, id), 'ada')).status).toBe(404);

    // The bus message lost: the record alone decides.
    const second = await openSession(a, 'ada');
    store.records.clear();
    expect(a.sessions.size).toBe(1);
    expect((await a.sessions.handle(post({ jsonrpc: '2.0', id: 4, method: 'ping' }, second), 'ada')).status).toBe(404);
    expect(a.sessions.size).toBe(0);
  });
});
