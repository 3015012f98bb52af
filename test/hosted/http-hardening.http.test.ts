/**
 * The hosted server as a public endpoint, over real sockets on 127.0.0.1: slow and greedy clients,
 * foreign Host and Origin headers, oversized bodies. Limits are set small through the server's
 * options; no test waits on a clock of its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { startHostedServer } from '../../src/hosted/index.js';
import { createLogger } from '../../src/log.js';
import type { HttpSocketLimits } from '../../src/transports/index.js';
import { openSocket } from '../transports/support/raw-http.js';
import type { HostedServer } from '../../src/hosted/hosted-server.js';

interface Running {
  readonly server: HostedServer;
  readonly port: number;
  readonly logLines: string[];
  mcpCalls: number;
}

const cleanups: (() => Promise<void>)[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  limits: Partial<HttpSocketLimits> = {},
  extra: { allowedHosts?: string[]; allowedOrigins?: string[] } = {},
): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-hharden-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const logLines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logLines.push(line) });
  const store = await openDirectoryStore({ dir: join(dir, 'store'), keyring: keys.keyring, logger });
  const running: { mcpCalls: number } = { mcpCalls: 0 };
  const server = await startHostedServer({
    host: '127.0.0.1',
    port: 0,
    store,
    logger,
    limits,
    ...extra,
    // Never reached: nothing here signs in at the school.
    school: (url) => ({
      schoolUrl: new URL('http://127.0.0.1:9/'),
      clientId: 'unused',
      clientSecret: 'unused',
      callback: url.schoolCallback,
      scopes: [],
    }),
    mcp: async (_req, res) => {
      running.mcpCalls++;
      res.end('{}');
    },
  });
  cleanups.push(() => server.close());
  return Object.assign(running, { server, port: Number(new URL(server.listenUrl).port), logLines });
}

const open = (port: number) => openSocket(port, sockets);

/** One raw request on its own connection, answered and closed. */
async function raw(port: number, request: string): Promise<string> {
  const client = await open(port);
  client.socket.end(request);
  await client.closed;
  return client.received();
}

const metadataPath = '/.well-known/oauth-protected-resource/mcp';

describe('HOST-22 slow clients, the connection cap and keep-alive of the hosted server', () => {
  it('HOST-22 cuts a client whose headers never end', async () => {
    const hosted = await start({ headersTimeoutMs: 200, requestTimeoutMs: 1_000 });
    const slow = await open(hosted.port);
    slow.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\nX-Slow: `);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(hosted.mcpCalls).toBe(0);
  });

  it('HOST-22 cuts a client whose registration body stalls', async () => {
    const hosted = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const slow = await open(hosted.port);
    slow.socket.write(
      `POST /oauth/register HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"redirect_uris":`,
    );
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('HOST-22 closes connections over the cap as they arrive, and serves again once one ends', async () => {
    const hosted = await start({ maxConnections: 2, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
    const first = await open(hosted.port);
    await open(hosted.port);
    const third = await open(hosted.port);
    await third.closed;
    expect(third.received()).toBe('');
    expect(hosted.logLines.join('\n')).toMatch(/too many are open/);
    first.socket.destroy();
    let answer = '';
    // The server learns of the closed socket asynchronously: ask until a connection is served.
    while (answer === '')
      answer = await raw(
        hosted.port,
        `GET ${metadataPath} HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\nConnection: close\r\n\r\n`,
      );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it('HOST-22 bounds the requests of one kept-alive connection, and closes an idle one', async () => {
    const hosted = await start({ maxRequestsPerSocket: 1, keepAliveTimeoutMs: 60_000 });
    const client = await open(hosted.port);
    const request = `GET ${metadataPath} HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\n\r\n`;
    client.socket.write(request + request);
    // Node marks the last allowed answer `Connection: close` and refuses what follows with 503.
    await new Promise<void>((resolve) => {
      const check = () => (/^HTTP\/1\.1 503/m.test(client.received()) ? resolve() : undefined);
      client.socket.on('data', check);
      check();
    });
    expect(client.received()).toMatch(/^HTTP\/1\.1 200[^]*^connection: close[^]*^HTTP\/1\.1 503/im);

    const idle = await start({ keepAliveTimeoutMs: 100 });
    const quiet = await open(idle.port);
    quiet.socket.write(`GET ${metadataPath} HTTP/1.1\r\nHost: 127.0.0.1:${idle.port}\r\n\r\n`);
    await quiet.closed;
    expect(quiet.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(quiet.received()).toMatch(/^keep-alive: timeout=0/im);
  });
});

describe('HOST-23 and HOST-24 the Host and Origin a hosted server answers', () => {
  it('HOST-23 refuses a foreign Host with 421 and a missing one with 400, before any route', async () => {
    const hosted = await start();
    const foreign = await raw(
      hosted.port,
      `GET ${metadataPath} HTTP/1.1\r\nHost: rebound.example:${hosted.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(foreign).toMatch(/^HTTP\/1\.1 421/);
    expect(foreign).toMatch(/"error":"misdirected_request"/);
    const missing = await raw(hosted.port, `GET ${metadataPath} HTTP/1.0\r\n\r\n`);
    expect(missing).toMatch(/^HTTP\/1\.0 400|^HTTP\/1\.1 400/);
    expect(missing).toMatch(/"error":"invalid_request"/);
    const twice = await raw(
      hosted.port,
      `GET ${metadataPath} HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\nHost: 127.0.0.1:${hosted.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(twice).toMatch(/^HTTP\/1\.1 400/);
    const own = await raw(
      hosted.port,
      `GET ${metadataPath} HTTP/1.1\r\nHost: localhost:${hosted.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(own).toMatch(/^HTTP\/1\.1 200/);
  });

  it('HOST-23 answers a Host a rewriting proxy sends once it is allowed', async () => {
    const hosted = await start({}, { allowedHosts: ['mcp-backend'] });
    const proxied = await raw(
      hosted.port,
      `GET ${metadataPath} HTTP/1.1\r\nHost: mcp-backend\r\nConnection: close\r\n\r\n`,
    );
    expect(proxied).toMatch(/^HTTP\/1\.1 200/);
  });

  it('HOST-24 refuses a browser request to /mcp from another origin with 403, and lets its own origin reach the token check', async () => {
    const hosted = await start({}, { allowedOrigins: ['https://chat.example'] });
    const base = hosted.server.listenUrl;
    const foreign = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: 'forbidden' });
    const own = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: new URL(base).origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(own.status).toBe(401);
    const allowed = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: 'https://chat.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(allowed.status).toBe(401);
    expect(hosted.mcpCalls).toBe(0);
  });
});

describe('HOST-25 body caps of the hosted server', () => {
  it('HOST-25 refuses a /mcp body declared over 1 MiB with 413 and a JSON error, before the token check', async () => {
    const hosted = await start();
    const answer = await raw(
      hosted.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${hosted.port}\r\ncontent-type: application/json\r\ncontent-length: ${1024 * 1024 + 1}\r\n\r\n{`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toMatch(/"error":"invalid_request"/);
  });

  it('HOST-25 refuses registration bodies over 56 KiB, declared or chunked', async () => {
    const hosted = await start();
    const big = JSON.stringify({ redirect_uris: ['http://127.0.0.1:1/cb'], client_name: 'x'.repeat(60 * 1024) });
    const declared = await fetch(`${hosted.server.listenUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: 'invalid_request' });
    const chunked = (body: string) =>
      fetch(`${hosted.server.listenUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
    // Without a declared length the engine's own parser stops at 56 KiB and answers 400; the same
    // registration sent small in chunks passes, so the size is what refused it.
    const refused = await chunked(big);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'failed to parse the request body',
    });
    const small = await chunked(
      JSON.stringify({
        redirect_uris: ['http://127.0.0.1:1/cb'],
        client_name: 'x'.repeat(1024),
        token_endpoint_auth_method: 'none',
      }),
    );
    expect(small.status).toBe(201);
  });

  it('HOST-25 refuses a consent or step-up form declared over 8 KiB with 413', async () => {
    const hosted = await start();
    for (const path of ['/consent/abc', '/step-up/abc']) {
      const answer = await fetch(`${hosted.server.listenUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf_token=${'a'.repeat(9 * 1024)}`,
      });
      expect(answer.status, path).toBe(413);
      expect(await answer.json()).toMatchObject({ error: 'invalid_request' });
    }
  });
});
