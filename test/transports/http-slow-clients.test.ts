/**
 * Slow and greedy clients over real sockets on 127.0.0.1: headers that never end, a body that
 * stalls, and more connections than the cap. The limits are set small through the endpoint's
 * options; the defaults are what a local endpoint needs, far below Node's.
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpSocketLimits } from '../../src/transports/index.js';
import { nodeServerOptions, DEFAULT_HTTP_SOCKET_LIMITS } from '../../src/transports/http-limits.js';
import { exchange, INITIALIZE, jsonRpcHeaders, openSocket } from './support/raw-http.js';
import { startEchoEndpoint, type EchoEndpoint } from './support/echo-endpoint.js';

const endpoints: EchoEndpoint[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.handle.close()));
});

async function start(limits: Partial<HttpSocketLimits>): Promise<EchoEndpoint> {
  const endpoint = await startEchoEndpoint({}, limits);
  endpoints.push(endpoint);
  return endpoint;
}

const open = (port: number) => openSocket(port, sockets);

describe('HTTP-10 slow clients and the connection cap', () => {
  it('HTTP-10 sets limits fit for a local endpoint, and has Node check them often enough', () => {
    expect(DEFAULT_HTTP_SOCKET_LIMITS.headersTimeoutMs).toBeLessThan(60_000);
    expect(DEFAULT_HTTP_SOCKET_LIMITS.requestTimeoutMs).toBeLessThan(300_000);
    expect(Number.isFinite(DEFAULT_HTTP_SOCKET_LIMITS.maxConnections)).toBe(true);
    expect(nodeServerOptions(DEFAULT_HTTP_SOCKET_LIMITS).connectionsCheckingInterval).toBeLessThanOrEqual(1_000);
    expect(
      nodeServerOptions({
        ...DEFAULT_HTTP_SOCKET_LIMITS,
        headersTimeoutMs: 200,
        requestTimeoutMs: 100,
        maxConnections: 1,
      }),
    ).toMatchObject({ headersTimeout: 100, requestTimeout: 100 });
  });

  it('HTTP-10 cuts a client whose headers never end', async () => {
    const endpoint = await start({ headersTimeoutMs: 200, requestTimeoutMs: 1_000 });
    const slow = await open(endpoint.port);
    slow.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\nX-Slow: `);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(endpoint.counters).toEqual({ servers: 0, toolCalls: 0 });
  });

  it('HTTP-10 cuts a client whose body stalls', async () => {
    const endpoint = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const slow = await open(endpoint.port);
    const headers = jsonRpcHeaders(endpoint.secret);
    slow.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n')}\r\ncontent-length: 1000\r\n\r\n{"jsonrpc":`,
    );
    await slow.closed;
    expect(endpoint.counters.toolCalls).toBe(0);
  });

  it('HTTP-10 closes connections over the cap as they arrive, and serves again once one ends', async () => {
    const endpoint = await start({ maxConnections: 2, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const first = await open(endpoint.port);
    await open(endpoint.port);
    const third = await open(endpoint.port);
    await third.closed;
    expect(third.received()).toBe('');
    expect(endpoint.logs.join('\n')).toMatch(/too many are open/);

    first.socket.destroy();
    let answer: Awaited<ReturnType<typeof exchange>> | undefined;
    // The server learns of the closed socket asynchronously: ask until a connection is served.
    while (answer === undefined) {
      answer = await exchange(endpoint.port, { headers: jsonRpcHeaders(endpoint.secret), body: INITIALIZE }).catch(
        () => undefined,
      );
    }
    expect(answer.status).toBe(200);
  });
});
