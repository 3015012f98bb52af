/**
 * What the MCP conformance suite's server scenarios check (initialize, ping, tools-list,
 * logging-set-level, dns-rebinding-protection, the SSE streams), against the real
 * `school-mcp --http` on the sandbox school, made here with the endpoint's secret on every Node;
 * conformance-suite.test.ts runs the suite itself on Node 22 and later.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { startHttpServer, type HttpServer } from '../helpers/mcp-http.js';

let sandbox: RunningSandbox;
let server: HttpServer;

beforeAll(async () => {
  sandbox = await startSandbox({});
  server = await startHttpServer({ args: ['--school', sandbox.url, '--no-browser'] });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'conformance-dns-rebinding-test', version: '1.0.0' },
  },
});

/** The suite's request: `Host` and `Origin` naming the same host, as a page at that origin sends them. */
async function initializeAs(host: string, withSecret = true): Promise<number> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          origin: `http://${host}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(withSecret ? { authorization: `Bearer ${server.secret}` } : {}),
        },
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    sent.once('error', reject);
    sent.end(INITIALIZE);
  });
}

describe('the conformance scenarios that apply to school-mcp --http', () => {
  it('server-initialize: names itself and declares tools (whose list can change) and logging', () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: 'school-mcp' });
    expect(server.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
  });

  it('ping answers with an empty result', async () => {
    expect(await server.client.ping()).toEqual({});
  });

  it('tools-list: every tool has a name, a description and an object input schema', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.length).toBeGreaterThan(3);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.description?.length).toBeGreaterThan(0);
      expect(tool.inputSchema.type).toBe('object');
    }
  });

  it('logging-set-level: logging/setLevel answers with an empty result, not -32601', async () => {
    expect(await server.client.setLoggingLevel('warning')).toEqual({});
  });

  it("HTTP-11 dns-rebinding-protection: a rebound Host and Origin are refused, the endpoint's own localhost ones accepted", async () => {
    const { port } = new URL(server.url);
    expect(await initializeAs('evil.example.com')).toBe(403);
    expect(await initializeAs(`evil.example.com:${port}`)).toBe(403);
    expect(await initializeAs(`localhost:${port}`)).toBe(200);
    expect(await initializeAs(`127.0.0.1:${port}`)).toBe(200);
    // Our own origin admits a page there, never a caller without the secret.
    expect(await initializeAs(`localhost:${port}`, false)).toBe(401);
  });

  it('server-sse-multiple-streams: concurrent calls each get their answer', async () => {
    const answers = await Promise.all([
      server.client.listTools(),
      server.client.ping(),
      server.client.callTool({ name: 'who_am_i', arguments: {} }),
    ]);
    expect(answers[0].tools.length).toBeGreaterThan(0);
    expect(answers[1]).toEqual({});
    expect((answers[2] as { structuredContent?: Record<string, unknown> }).structuredContent).toMatchObject({
      signedIn: false,
    });
  });
});
