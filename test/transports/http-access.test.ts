/**
 * Who gets in, over a real listener on 127.0.0.1: what a DNS-rebound page sends (foreign Host,
 * Origin), what a caller without the secret sends, and what a browser preflight sends. Every
 * refusal happens before any MCP code runs, and no answer carries CORS headers or a redirect.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, INITIALIZE, jsonRpcHeaders, rawExchange, type Answer } from './support/raw-http.js';
import { startEchoEndpoint, type EchoEndpoint } from './support/echo-endpoint.js';

const endpoints: EchoEndpoint[] = [];

afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.handle.close()));
});

async function start(...args: Parameters<typeof startEchoEndpoint>): Promise<EchoEndpoint> {
  const endpoint = await startEchoEndpoint(...args);
  endpoints.push(endpoint);
  return endpoint;
}

function expectNoCors(answer: Answer): void {
  for (const name of Object.keys(answer.headers)) expect(name.toLowerCase()).not.toMatch(/^access-control-/);
}

function expectUntouched(endpoint: EchoEndpoint): void {
  expect(endpoint.counters).toEqual({ servers: 0, toolCalls: 0 });
}

describe('HTTP-01 loopback by default', () => {
  it('HTTP-01 binds 127.0.0.1 and prints the URL, never to stdout', async () => {
    const endpoint = await start();
    expect(new URL(endpoint.handle.url).hostname).toBe('127.0.0.1');
    expect(endpoint.logs.join('\n')).toContain(endpoint.handle.url);
  });

  it('HTTP-01 refuses a reachable address without --allow-remote and a chosen secret', async () => {
    await expect(startEchoEndpoint({ host: '0.0.0.0' })).rejects.toMatchObject({ code: 'HTTP_BIND_REFUSED' });
    await expect(
      startEchoEndpoint({ host: '0.0.0.0', allowRemote: true, allowedHosts: ['mcp.example'] }),
    ).rejects.toMatchObject({ code: 'HTTP_BIND_REFUSED' });
  });

  it('HTTP-01 says which port is taken instead of crashing', async () => {
    const first = await start();
    await expect(startEchoEndpoint({ port: first.port })).rejects.toMatchObject({
      code: 'HTTP_LISTEN_FAILED',
      hint: expect.stringContaining('--port'),
    });
  });
});

describe('HTTP-02 Host allow-list', () => {
  it.each(['127.0.0.1', 'localhost', '[::1]'])('HTTP-02 answers Host %s:<port>', async (name) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(endpoint.secret), host: `${name}:${endpoint.port}` },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['a foreign name', (port: number) => `evil.example:${port}`],
    ['a lookalike subdomain', (port: number) => `localhost.evil.example:${port}`],
    ['a rebinding service name', (port: number) => `127.0.0.1.nip.io:${port}`],
    ['our address with another port', (port: number) => `127.0.0.1:${port + 1}`],
    ['our address without the port', () => '127.0.0.1'],
  ])('HTTP-02 refuses %s with 403 before authentication and before any MCP work', async (_label, host) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(endpoint.secret), host: host(endpoint.port) },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expectNoCors(answer);
    expectUntouched(endpoint);
  });

  it('HTTP-02 refuses an HTTP/1.0 request without Host', async () => {
    const endpoint = await start();
    const { statusLine } = await rawExchange(
      endpoint.port,
      `POST /mcp HTTP/1.0\r\nAuthorization: Bearer ${endpoint.secret}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`,
    );
    expect(statusLine).toMatch(/^HTTP\/1\.[01] 403 /);
    expectUntouched(endpoint);
  });

  it('HTTP-02 refuses two Host headers, even when the first is ours', async () => {
    const endpoint = await start();
    const { statusLine } = await rawExchange(
      endpoint.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\nHost: evil.example\r\nAuthorization: Bearer ${endpoint.secret}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`,
    );
    expect(statusLine).toMatch(/^HTTP\/1\.1 403 /);
    expectUntouched(endpoint);
  });
});

describe('HTTP-03 Origin', () => {
  it.each([
    'https://evil.example',
    'null',
    'http://localhost:5173',
    'http://127.0.0.1:{other}',
    'https://127.0.0.1:{port}',
    'http://evil.example:{port}',
  ])('HTTP-03 refuses Origin %s with 403 when no origin is allowed (the default)', async (origin) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      headers: {
        ...jsonRpcHeaders(endpoint.secret),
        origin: origin.replace('{port}', String(endpoint.port)).replace('{other}', String(endpoint.port + 1)),
      },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(403);
    expectNoCors(answer);
    expectUntouched(endpoint);
  });

  it('HTTP-03 lets an explicitly allowed origin through, matched on scheme, host and port', async () => {
    const endpoint = await start({ allowedOrigins: ['https://app.example:8443'] });
    const allowed = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(endpoint.secret), origin: 'https://app.example:8443' },
      body: INITIALIZE,
    });
    expect(allowed.status).toBe(200);
    expectNoCors(allowed);
    for (const near of [
      'https://app.example',
      'http://app.example:8443',
      'https://app.example:8444',
      'https://sub.app.example:8443',
    ]) {
      const answer = await exchange(endpoint.port, {
        headers: { ...jsonRpcHeaders(endpoint.secret), origin: near },
        body: INITIALIZE,
      });
      expect(answer.status, near).toBe(403);
    }
  });
});

describe("HTTP-11 the endpoint's own loopback origin", () => {
  it.each(['127.0.0.1', 'localhost', '[::1]'])(
    'HTTP-11 answers Origin http://%s:<port>, the origin the endpoint is reached at',
    async (name) => {
      const endpoint = await start();
      const host = `${name}:${endpoint.port}`;
      const answer = await exchange(endpoint.port, {
        headers: { ...jsonRpcHeaders(endpoint.secret), host, origin: `http://${host}` },
        body: INITIALIZE,
      });
      expect(answer.status).toBe(200);
      expectNoCors(answer);
    },
  );

  it('HTTP-11 still refuses a rebound name in Host with our own origin, and our origin without the secret', async () => {
    const endpoint = await start();
    const own = `http://127.0.0.1:${endpoint.port}`;
    const rebound = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(endpoint.secret), host: `evil.example:${endpoint.port}`, origin: own },
      body: INITIALIZE,
    });
    expect(rebound.status).toBe(403);
    const anonymous = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(undefined), origin: own },
      body: INITIALIZE,
    });
    expect(anonymous.status).toBe(401);
    expectUntouched(endpoint);
  });
});

describe('HTTP-04 bearer secret', () => {
  it('HTTP-04 makes a 256-bit secret at launch, shows it once, and never logs it', async () => {
    const endpoint = await start();
    expect(Buffer.from(endpoint.secret, 'base64url')).toHaveLength(32);
    expect(endpoint.announced.join('\n').split(endpoint.secret)).toHaveLength(2);
    await exchange(endpoint.port, { headers: jsonRpcHeaders('wrong-secret-value'), body: INITIALIZE });
    expect(endpoint.logs.join('\n')).not.toContain(endpoint.secret);
    const other = await start();
    expect(other.secret).not.toBe(endpoint.secret);
  });

  it.each([
    ['no Authorization header', () => ({})],
    [
      'a wrong secret of the same length',
      (secret: string) => ({ authorization: `Bearer ${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}` }),
    ],
    ['a prefix of the secret', (secret: string) => ({ authorization: `Bearer ${secret.slice(0, 20)}` })],
    ['the secret with one more character', (secret: string) => ({ authorization: `Bearer ${secret}x` })],
    ['the secret under another scheme', (secret: string) => ({ authorization: `Basic ${secret}` })],
    [
      'the secret in two Authorization headers',
      (secret: string) => ({ authorization: [`Bearer ${secret}`, `Bearer ${secret}`] }),
    ],
    [
      'a platform access token of someone else (HTTP-08)',
      () => ({ authorization: 'Bearer sandbox-access-token-of-someone-else-0123456789' }),
    ],
  ])('HTTP-04 answers %s with 401 and runs no handler', async (_label, headers) => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, {
      headers: { ...jsonRpcHeaders(undefined), ...headers(endpoint.secret) },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="school-mcp"');
    expectNoCors(answer);
    expectUntouched(endpoint);
  });

  it('HTTP-04 accepts a secret the user chose, and the right one opens the door', async () => {
    const endpoint = await start({ secret: 'a-secret-the-user-chose-1234' });
    expect(endpoint.announced).toEqual([]);
    const answer = await exchange(endpoint.port, {
      headers: jsonRpcHeaders('a-secret-the-user-chose-1234'),
      body: INITIALIZE,
    });
    expect(answer.status).toBe(200);
    expect(endpoint.counters.servers).toBe(1);
  });
});

describe('HTTP-05 no CORS, LB-08 no redirects', () => {
  it('HTTP-05 refuses OPTIONS (a preflight with Origin: 403; without: 405), with no CORS headers', async () => {
    const endpoint = await start();
    const preflight = await exchange(endpoint.port, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(403);
    expectNoCors(preflight);
    const bare = await exchange(endpoint.port, {
      method: 'OPTIONS',
      headers: { authorization: `Bearer ${endpoint.secret}` },
    });
    expect(bare.status).toBe(405);
    expectNoCors(bare);
    expectUntouched(endpoint);
  });

  it('HTTP-05 puts no CORS header on a served answer either', async () => {
    const endpoint = await start();
    const answer = await exchange(endpoint.port, { headers: jsonRpcHeaders(endpoint.secret), body: INITIALIZE });
    expect(answer.status).toBe(200);
    expectNoCors(answer);
  });

  it.each([
    '/mcp?redirect=https://evil.example&next=//evil.example',
    '//evil.example/mcp',
    '/callback?redirect=https://evil.example',
    '/',
    '/mcp/../evil',
  ])('LB-08 never redirects: %s', async (path) => {
    const endpoint = await start();
    for (const method of ['GET', 'POST']) {
      const answer = await exchange(endpoint.port, {
        method,
        path,
        headers: jsonRpcHeaders(endpoint.secret),
        body: method === 'POST' ? INITIALIZE : undefined,
      });
      expect(
        answer.status === 200 || (answer.status >= 400 && answer.status < 500),
        `${method} ${path} → ${answer.status}`,
      ).toBe(true);
      expect(answer.headers['location']).toBeUndefined();
      expectNoCors(answer);
    }
  });

  it('answers paths other than /mcp with 404 after authentication', async () => {
    const endpoint = await start();
    expect(
      (await exchange(endpoint.port, { path: '/sse', headers: jsonRpcHeaders(endpoint.secret), body: INITIALIZE }))
        .status,
    ).toBe(404);
    expect(
      (await exchange(endpoint.port, { path: '/sse', headers: jsonRpcHeaders(undefined), body: INITIALIZE })).status,
    ).toBe(401);
    expectUntouched(endpoint);
  });
});
