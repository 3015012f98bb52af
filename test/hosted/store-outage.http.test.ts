/**
 * Hosted mode while its store is away: a real redis-server stopped and started again under a
 * hosted server on real HTTP, and a store that fails a person's grant read in the middle of an
 * MCP request.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { exchange as rawHttp, rawExchange, type Answer } from '../transports/support/raw-http.js';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  authorizeUrl,
  callMcp,
  exchange,
  openConsent,
  pkce,
  registerMcpClient,
  signIn,
  startHosted,
  tokenRequest,
  type Hosted,
} from '../app/support/hosted-harness.js';

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

const portOf = (hosted: Hosted) => Number(new URL(hosted.server.listenUrl).port);

function expectStoreOutageAnswer(answer: Answer, route: string): void {
  expect(answer.status, `${route}: ${answer.body}`).toBe(503);
  expect(answer.headers['retry-after'], route).toBe('1');
  expect(JSON.parse(answer.body), route).toEqual({
    error: 'temporarily_unavailable',
    error_description: expect.stringMatching(/store/),
  });
}

describeWithRedis('hosted mode while its Redis store is away', () => {
  let redis: RedisServer;
  let hosted: Hosted;
  beforeAll(async () => {
    redis = await startRedisServer({ persistent: true });
    hosted = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'], redisUrl: redis.url });
  });
  afterAll(async () => {
    await hosted?.close();
    await redis?.close();
  });

  it('SCL-01 SCL-02 SCL-03 answers 503 store_unavailable, fast 503s with Retry-After on every route that needs the store, one warning, then recovers by itself', async () => {
    const member = SANDBOX_STAFF[1]!;
    const registered = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, registered, member.sub);
    const tokens = await exchange(hosted.base, registered, code, verifier);
    const accessToken = String(tokens.body.access_token);
    const port = portOf(hosted);
    const probe = (path: string) => rawHttp(port, { method: 'GET', path, headers: { host: '10.20.30.40' } });

    // A sign-in of another person that reached school-mcp's consent page before the outage.
    const browser = new CookieBrowser();
    const { consentUrl } = await openConsent(browser, authorizeUrl(hosted.base, registered, pkce().challenge));

    // A load balancer asks by IP: any Host is answered, with one word.
    expect(await probe('/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(await probe('/readyz')).toMatchObject({ status: 200, body: '{"status":"ready"}' });
    // HAProxy's `option httpchk GET /readyz` sends HTTP/1.0 with no Host at all.
    expect((await rawExchange(port, 'GET /readyz HTTP/1.0\r\n\r\n')).statusLine).toBe('HTTP/1.1 200 OK');

    await redis.stop();
    await vi.waitFor(
      async () => expect(await probe('/readyz')).toMatchObject({ status: 503, body: '{"status":"store_unavailable"}' }),
      { timeout: 10_000, interval: 50 },
    );
    expect(await probe('/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });

    const form = (fields: Record<string, string>) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const routes: [string, Promise<Answer>][] = [
      [
        'refresh at the token endpoint',
        rawHttp(port, {
          path: '/oauth/token',
          ...form({
            grant_type: 'refresh_token',
            refresh_token: String(tokens.body.refresh_token),
            client_id: registered.clientId,
          }),
        }),
      ],
      [
        'registration',
        rawHttp(port, {
          path: '/oauth/register',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            redirect_uris: ['http://127.0.0.1:47011/callback'],
            token_endpoint_auth_method: 'none',
          }),
        }),
      ],
      [
        'authorization',
        rawHttp(port, {
          method: 'GET',
          path: `${authorizeUrl(hosted.base, registered, pkce().challenge).pathname}${authorizeUrl(hosted.base, registered, pkce().challenge).search}`,
          headers: { accept: 'text/html' },
        }),
      ],
      [
        'revocation',
        rawHttp(port, { path: '/oauth/revoke', ...form({ token: accessToken, client_id: registered.clientId }) }),
      ],
      [
        'the token check of /mcp',
        rawHttp(port, {
          path: '/mcp',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${accessToken}`,
          },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        }),
      ],
      ['a step-up page', rawHttp(port, { method: 'GET', path: `/step-up/${randomBytes(24).toString('base64url')}` })],
      [
        "the school's callback",
        rawHttp(port, { method: 'GET', path: '/oauth/callback?state=some-state&code=some-code' }),
      ],
    ];
    for (const [route, answer] of routes) expectStoreOutageAnswer(await answer, route);
    const consentPage = await browser.request(consentUrl);
    expectStoreOutageAnswer(
      {
        status: consentPage.status,
        headers: { 'retry-after': consentPage.headers.get('retry-after') ?? undefined },
        body: await consentPage.text(),
      },
      'the consent page',
    );
    const outageLines = () => hosted.logLines.filter((line) => line.includes('the grant store is not answering'));
    expect(outageLines()).toHaveLength(1);
    // One warning for the whole outage, from whichever layer: not one per request, nor one per reconnection attempt.
    expect(hosted.logLines.filter((line) => line.includes('[warn]'))).toEqual([
      expect.stringContaining('the grant store is not answering'),
    ]);
    expect(hosted.logLines.join('\n')).not.toContain('authorization server error');
    expect(hosted.logLines.join('\n')).not.toContain(accessToken);

    await redis.restart();
    await vi.waitFor(
      async () => expect(await probe('/readyz')).toMatchObject({ status: 200, body: '{"status":"ready"}' }),
      { timeout: 10_000, interval: 50 },
    );
    expect(hosted.logLines.filter((line) => line.includes('the grant store answers again'))).toHaveLength(1);
    expect(outageLines()).toHaveLength(1);
    // Nothing was lost (the Redis keeps its data) and nothing needs a new sign-in.
    const refreshed = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: registered.clientId,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const client = new Client({ name: 'store-outage-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${String(refreshed.body.access_token)}` } },
      }),
    );
    try {
      expect(textOf(await client.callTool({ name: 'who_am_i', arguments: {} }))).toContain(member.name);
    } finally {
      await client.close();
    }
    // The access token issued before the outage still passes the token check.
    expect((await callMcp(hosted.base, accessToken)).status).not.toBe(401);
  });
});

describe("hosted mode when a person's grant cannot be read in the middle of a call", () => {
  let failGrantReads = false;
  let hosted: Hosted;
  beforeAll(async () => {
    hosted = await startHosted({
      tools: true,
      schoolScopes: ['account:read', 'courses:read'],
      wrapStore: (store) => ({
        ...store,
        read: (namespace, name) => {
          if (failGrantReads && namespace === SCHOOL_GRANTS)
            return Promise.reject(
              new SchoolMcpError(
                'STORE_UNAVAILABLE',
                'The Redis grant store could not read a school-grants record (The client is closed).',
              ),
            );
          return store.read(namespace, name);
        },
      }),
    });
  });
  afterAll(async () => {
    await hosted?.close();
  });

  it('SCL-05 answers the tool call with an isError result coded STORE_UNAVAILABLE that says to call again shortly, and the call works once the store answers', async () => {
    const member = SANDBOX_STAFF[0]!;
    const registered = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, registered, member.sub);
    const accessToken = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
    const client = new Client({ name: 'grant-read-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    try {
      failGrantReads = true;
      const failed = (await client.callTool({ name: 'list_courses', arguments: {} })) as { isError?: boolean };
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/^list_courses failed \(STORE_UNAVAILABLE\)\./);
      expect(textOf(failed)).toMatch(/Next step: call list_courses again in a few seconds/);
      failGrantReads = false;
      const again = (await client.callTool({ name: 'list_courses', arguments: {} })) as { isError?: boolean };
      expect(again.isError, textOf(again)).toBeFalsy();
    } finally {
      failGrantReads = false;
      await client.close();
    }
  });
});
