/**
 * A hosted server whose public URL is https, as behind a TLS-terminating proxy, over real sockets
 * on 127.0.0.1: what a client's forwarding headers can and cannot change, and what may be cached.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys } from '../../src/grant-store/index.js';
import { parsePublicUrl, startHostedServer } from '../../src/hosted/index.js';
import type { HostedServerOptions } from '../../src/hosted/hosted-server.js';
import { createLogger } from '../../src/log.js';
import { exchange, type Answer, type Exchange } from '../transports/support/raw-http.js';
import type { HostedServer } from '../../src/hosted/hosted-server.js';

const PUBLIC = 'https://mcp.school.example';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  readonly server: HostedServer;
  /** One request as the proxy forwards it: plain http, `Host` the public one. */
  send(request: Exchange): Promise<Answer>;
}

async function start(extra: Partial<HostedServerOptions> = {}): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'school-mcp-proxy-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const keys = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!keys.ok) throw new Error(keys.reason);
  const logger = createLogger({ level: 'error', write: () => undefined });
  const store = await openDirectoryStore({ dir: join(dir, 'store'), keyring: keys.keyring, logger });
  const publicUrl = parsePublicUrl(PUBLIC);
  if (!publicUrl.ok) throw new Error(publicUrl.reason);
  const server = await startHostedServer({
    host: '127.0.0.1',
    port: 0,
    store,
    logger,
    publicUrl: publicUrl.url,
    // Never reached: nothing here signs in at the school.
    school: (url) => ({
      schoolUrl: new URL('http://127.0.0.1:9/'),
      clientId: 'unused',
      clientSecret: 'unused',
      callback: url.schoolCallback,
      scopes: [],
    }),
    mcp: async (_req, res) => void res.end('{}'),
    ...extra,
  });
  cleanups.push(() => server.close());
  const port = Number(new URL(server.listenUrl).port);
  return {
    server,
    send: (request) =>
      exchange(port, { method: 'GET', ...request, headers: { host: 'mcp.school.example', ...request.headers } }),
  };
}

const HOSTILE = {
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'http',
  forwarded: 'host=evil.example;proto=http',
};

describe('HOST-41 forwarding headers', () => {
  it.each([false, true])(
    'HOST-41 names only the public URL in the metadata, whatever X-Forwarded-Host and -Proto say (trust proxy: %s)',
    async (trustProxy) => {
      const running = await start({ trustProxy });
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const answer = await running.send({ path, headers: HOSTILE });
        expect(answer.status).toBe(200);
        const metadata = JSON.parse(answer.body) as Record<string, string>;
        expect(metadata.issuer).toBe(PUBLIC);
        for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri'])
          expect(metadata[endpoint]!.startsWith(`${PUBLIC}/oauth/`)).toBe(true);
        expect(answer.body).not.toContain('evil.example');
      }
    },
  );

  it("HOST-41 marks the engine's cookies Secure, as the public URL is https, even when X-Forwarded-Proto says http", async () => {
    const running = await start();
    const registered = await running.send({
      path: '/oauth/register',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://chat.example/cb'], token_endpoint_auth_method: 'none' }),
    });
    const clientId = (JSON.parse(registered.body) as { client_id: string }).client_id;
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: 'https://chat.example/cb',
      scope: 'mcp',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: PUBLIC,
    });
    const answer = await running.send({ path: `/oauth/authorize?${query}`, headers: HOSTILE });
    expect(answer.status).toBe(303);
    const cookies = [answer.headers['set-cookie'] ?? []].flat();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase()).toContain('; secure');
  });
});

describe('HOST-42 what may be cached', () => {
  it('HOST-42 lets the metadata and keys be cached five minutes, and never an error on those paths', async () => {
    const running = await start();
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/oauth/jwks',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const answer = await running.send({ path });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['cache-control'], path).toBe('public, max-age=300');
    }
    const refused = await running.send({
      path: '/oauth/jwks',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('HOST-42 never lets a registration or token answer be cached', async () => {
    const running = await start();
    const registration = await running.send({
      path: '/oauth/register',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://chat.example/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(201);
    expect(registration.headers['cache-control']).toBe('no-store');
    const token = await running.send({
      path: '/oauth/token',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=x',
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.headers['cache-control']).toBe('no-store');
  });
});

describe('HOST-44 open registration within bounds', () => {
  const registration = (running: Running, address?: string) =>
    running.send({
      path: '/oauth/register',
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(address === undefined ? {} : { 'x-forwarded-for': address }) },
      body: JSON.stringify({
        redirect_uris: ['https://chat.example/cb'],
        token_endpoint_auth_method: 'none',
        client_name: 'x'.repeat(40 * 1024),
      }),
    });

  it('HOST-44 refuses registrations over the per-address limit with 429 and Retry-After, however X-Forwarded-For varies without --trust-proxy', async () => {
    const running = await start({ registration: { perAddressPerHour: 3 } });
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      expect((await registration(running, address)).status).toBe(201);
    const refused = await registration(running, '198.51.100.4');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(refused.body)).toMatchObject({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/too many registrations from this address/),
    });
  });

  it('HOST-44 counts by the address the trusted proxy appended, so one address is refused and another still served', async () => {
    const running = await start({ trustProxy: true, registration: { perAddressPerHour: 2 } });
    for (let index = 0; index < 2; index += 1)
      expect((await registration(running, `192.0.2.50, 203.0.113.7`)).status).toBe(201);
    expect((await registration(running, '192.0.2.51, 203.0.113.7')).status).toBe(429);
    expect((await registration(running, '203.0.113.8')).status).toBe(201);
  });

  it('HOST-44 stops taking registrations at the cap, from any address', async () => {
    const running = await start({ trustProxy: true, registration: { perAddressPerHour: 100, cap: 3 } });
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      expect((await registration(running, address)).status).toBe(201);
    const refused = await registration(running, '203.0.113.4');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({
      error_description: expect.stringMatching(/no more registrations/),
    });
  });
});
