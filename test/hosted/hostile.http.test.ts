import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  allowAtSchoolMcp,
  authorizeUrl,
  callMcp,
  CLIENT_REDIRECT,
  exchange,
  openConsent,
  pkce,
  registerMcpClient,
  returnFromSchool,
  signIn,
  startHosted,
  tokenRequest,
  type Hosted,
} from '../app/support/hosted-harness.js';

// One hosted server for the file: every case registers its own clients and signs in its own people.
let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
});
afterAll(async () => {
  await hosted.close();
});

const [ada, grace, alan] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!, SANDBOX_STAFF[2]!];

async function tokensFor(user: string) {
  const client = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, client, user);
  const tokens = await exchange(hosted.base, client, code, verifier);
  expect(tokens.status).toBe(200);
  return { client, access: String(tokens.body.access_token), refresh: String(tokens.body.refresh_token) };
}

/** Where the authorization endpoint sends the browser for this request, without any consent. */
async function authorizeOutcome(url: URL): Promise<{ status: number; location: URL | undefined; text: string }> {
  const response = await new CookieBrowser().request(url);
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location === null ? undefined : new URL(location, hosted.base),
    text: await response.text(),
  };
}

describe('hosted mode: the protected resource', () => {
  it('HOST-01 answers /mcp without a token with 401 and a challenge that leads to its metadata', async () => {
    const answer = await callMcp(hosted.base, undefined);
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${hosted.base}/.well-known/oauth-protected-resource/mcp`);
    expect(challenge).not.toContain('error=');
    const metadata = (await (await fetch(metadataUrl!)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      resource: `${hosted.base}/mcp`,
      authorization_servers: [hosted.base],
      scopes_supported: ['mcp'],
    });
    const server = (await (await fetch(`${hosted.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(server).toMatchObject({
      issuer: hosted.base,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${hosted.base}/oauth/register`,
    });
    expect(server.authorization_response_iss_parameter_supported).toBe(true);
  });

  it.each([
    ['an unknown token', 'Bearer not-a-token-of-ours'],
    ['a basic credential', 'Basic YWRhOnNlY3JldA=='],
  ])('HOST-01 answers /mcp with %s with 401 invalid_token', async (_label, header) => {
    const answer = await fetch(`${hosted.base}/mcp`, {
      method: 'POST',
      headers: { authorization: header, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*resource_metadata="/);
  });

  it('HOST-01 refuses its own valid token sent in two Authorization fields (RFC 9110 §5.3: the field is not a list)', async () => {
    const { access } = await tokensFor(ada.sub);
    expect((await callMcp(hosted.base, access)).status).toBe(200);
    const twice = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        `${hosted.base}/mcp`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      request.setHeader('authorization', [`Bearer ${access}`, `Bearer ${access}`]);
      request.on('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(twice).toBe(401);
  });

  it('HOST-02 issues tokens for its own public URL only: another resource is refused at authorization and at the token endpoint', async () => {
    const client = await registerMcpClient(hosted.base);
    const other = await authorizeOutcome(
      authorizeUrl(hosted.base, client, pkce().challenge, { resource: 'https://other.example' }),
    );
    expect(other.location?.href.startsWith(CLIENT_REDIRECT)).toBe(true);
    expect(other.location?.searchParams.get('error')).toBe('invalid_target');
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const refused = await exchange(hosted.base, client, code, verifier, { resource: 'https://other.example' });
    expect(refused.body.error).toBe('invalid_target');
  });

  it("HOST-02 never accepts the school's own token at /mcp, and never hands it to the MCP client", async () => {
    const { access } = await tokensFor(alan.sub);
    const grant = (await hosted.store.read(SCHOOL_GRANTS, alan.sub)) as { accessToken: string; refreshToken: string };
    expect(grant.accessToken).not.toBe(access);
    expect((await callMcp(hosted.base, grant.accessToken)).status).toBe(401);
  });
});

describe('hosted mode: registration', () => {
  it.each([
    ['plain http on a name', 'http://agent.example/callback'],
    ['a custom scheme', 'com.example.agent:/callback'],
    ['a script URI', 'javascript:alert(1)'],
  ])('HOST-05 refuses to register a redirect URI with %s', async (_label, uri) => {
    const response = await fetch(`${hosted.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Record<string, unknown>).error).toMatch(
      /invalid_redirect_uri|invalid_client_metadata/,
    );
  });

  it('HOST-05 registers https callbacks of web clients and loopback ones of local clients', async () => {
    await expect(
      registerMcpClient(hosted.base, { redirect_uris: ['https://chat.example/api/mcp/callback'] }),
    ).resolves.toHaveProperty('clientId');
    await expect(
      registerMcpClient(hosted.base, {
        redirect_uris: ['http://localhost:33418/callback', 'http://127.0.0.1:33418/callback'],
      }),
    ).resolves.toHaveProperty('clientId');
  });

  it('HOST-05 refuses an oversized registration before reading it', async () => {
    const response = await fetch(`${hosted.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CLIENT_REDIRECT], client_name: 'x'.repeat(200 * 1024) }),
    });
    expect(response.status).toBe(413);
  });

  it('HOST-05 shows an error, never a redirect, for a redirect URI the client did not register', async () => {
    const client = await registerMcpClient(hosted.base);
    const outcome = await authorizeOutcome(
      authorizeUrl(hosted.base, client, pkce().challenge, { redirect_uri: 'http://127.0.0.1:47011/elsewhere' }),
    );
    expect(outcome.location).toBeUndefined();
    expect(outcome.status).toBe(400);
    expect(outcome.text).toContain('redirect_uri');
  });
});

describe('hosted mode: PKCE and codes', () => {
  it.each([
    ['no code challenge', { code_challenge: undefined, code_challenge_method: undefined }],
    ['the plain method', { code_challenge_method: 'plain' }],
  ])('HOST-04 refuses an authorization request with %s', async (_label, overrides) => {
    const client = await registerMcpClient(hosted.base);
    const outcome = await authorizeOutcome(authorizeUrl(hosted.base, client, pkce().challenge, overrides));
    expect(outcome.location?.searchParams.get('error')).toBe('invalid_request');
    expect(outcome.location?.searchParams.get('code')).toBeNull();
  });

  it('HOST-04 refuses a code exchanged without its verifier or with another one', async () => {
    const client = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const without = await tokenRequest(hosted.base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CLIENT_REDIRECT,
      client_id: client.clientId,
    });
    expect(without.body.error).toMatch(/invalid_grant|invalid_request/);
    expect((await exchange(hosted.base, client, code, pkce().verifier)).body.error).toBe('invalid_grant');
    expect(verifier).not.toBe('');
  });

  it("HOST-03 refuses another client's code and another client's refresh token", async () => {
    const owner = await tokensFor(grace.sub);
    const thief = await registerMcpClient(hosted.base);
    const stolen = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: owner.refresh,
      client_id: thief.clientId,
    });
    expect(stolen.body.error).toBe('invalid_grant');
    const victim = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, victim, grace.sub);
    expect((await exchange(hosted.base, thief, code, verifier)).body.error).toBe('invalid_grant');
  });

  it('HOST-07 refuses a replayed code and revokes what the first exchange issued', async () => {
    const client = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const first = await exchange(hosted.base, client, code, verifier);
    expect(first.status).toBe(200);
    expect((await callMcp(hosted.base, String(first.body.access_token))).status).toBe(200);
    expect((await exchange(hosted.base, client, code, verifier)).body.error).toBe('invalid_grant');
    expect((await callMcp(hosted.base, String(first.body.access_token))).status).toBe(401);
  });

  it('HOST-07 issues tokens for a code once when several exchanges race for it', async () => {
    const client = await registerMcpClient(hosted.base);
    const { code, verifier } = await signIn(hosted, client, ada.sub);
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(hosted.base, client, code, verifier)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200))
      expect(answer.body.error).toBe('invalid_grant');
  });

  it('HOST-08 rotates refresh tokens, and a stolen one used after rotation ends the whole grant', async () => {
    const { client, refresh } = await tokensFor(alan.sub);
    const rotated = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: client.clientId,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(refresh);
    expect((await callMcp(hosted.base, String(rotated.body.access_token))).status).toBe(200);
    const replay = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: client.clientId,
    });
    expect(replay.body.error).toBe('invalid_grant');
    expect((await callMcp(hosted.base, String(rotated.body.access_token))).status).toBe(401);
    const afterTheft = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: String(rotated.body.refresh_token),
      client_id: client.clientId,
    });
    expect(afterTheft.body.error).toBe('invalid_grant');
  });

  it("HOST-11 revoking a connection's refresh token ends its grant and the person's school sign-in", async () => {
    const { client, access, refresh } = await tokensFor(grace.sub);
    const schoolRevocations = hosted.sandbox.countRequests('/api/oauth/revoke');
    const revoked = await fetch(`${hosted.base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refresh, token_type_hint: 'refresh_token', client_id: client.clientId }),
    });
    expect(revoked.status).toBe(200);
    expect((await callMcp(hosted.base, access)).status).toBe(401);
    expect(await hosted.store.read(SCHOOL_GRANTS, grace.sub)).toBeUndefined();
    expect(hosted.sandbox.countRequests('/api/oauth/revoke')).toBeGreaterThan(schoolRevocations);
  });

  it('HOST-11 a revoked access token no longer opens /mcp', async () => {
    const { client, access } = await tokensFor(ada.sub);
    const revoked = await fetch(`${hosted.base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: access, client_id: client.clientId }),
    });
    expect(revoked.status).toBe(200);
    expect((await callMcp(hosted.base, access)).status).toBe(401);
  });
});

describe("hosted mode: school-mcp's consent", () => {
  it('HOST-12 names the client, where the answer goes and the school, escaping what the client chose', async () => {
    const client = await registerMcpClient(hosted.base, { client_name: 'Agent <script>alert(1)</script>' });
    const { html } = await openConsent(new CookieBrowser(), authorizeUrl(hosted.base, client, pkce().challenge));
    expect(html).toContain('Agent &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('127.0.0.1:47011');
    expect(html).toContain(new URL(hosted.sandbox.url).host);
    expect(html).toMatch(/Allow[\s\S]*Deny/);
  });

  it('HOST-06 refuses a consent form without its CSRF token, with another one, or from another site', async () => {
    const client = await registerMcpClient(hosted.base);
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, authorizeUrl(hosted.base, client, pkce().challenge));
    for (const form of [{ decision: 'allow' }, { decision: 'allow', csrf_token: `${csrf}x` }] as Record<
      string,
      string
    >[]) {
      const answer = await browser.request(consentUrl, { form });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('location')).toBeNull();
    }
    const foreign = await browser.request(consentUrl, {
      form: { decision: 'allow', csrf_token: csrf },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // The real form still works afterwards.
    expect((await allowAtSchoolMcp(browser, consentUrl, csrf)).origin).toBe(new URL(hosted.sandbox.url).origin);
  });

  it('HOST-06 answers a consent page opened in another browser with an error, not the form', async () => {
    const client = await registerMcpClient(hosted.base);
    const { consentUrl, csrf } = await openConsent(
      new CookieBrowser(),
      authorizeUrl(hosted.base, client, pkce().challenge),
    );
    const elsewhere = new CookieBrowser();
    const page = await elsewhere.request(consentUrl);
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain('csrf_token');
    const post = await elsewhere.request(consentUrl, { form: { decision: 'allow', csrf_token: csrf } });
    expect(post.status).toBe(400);
  });

  it('HOST-06 sends the client access_denied when the user denies at school-mcp, without visiting the school', async () => {
    const client = await registerMcpClient(hosted.base);
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, authorizeUrl(hosted.base, client, pkce().challenge));
    const before = hosted.sandbox.countRequests('/oauth/authorize');
    const denied = await browser.request(consentUrl, { form: { decision: 'deny', csrf_token: csrf } });
    const { url } = await returnFromSchool(browser, new URL(denied.headers.get('location')!, hosted.base));
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('iss')).toBe(hosted.base);
    expect(hosted.sandbox.countRequests('/oauth/authorize')).toBe(before);
  });

  it("HOST-09 refuses the school's answer in a browser that did not start that sign-in, and a replayed answer", async () => {
    const client = await registerMcpClient(hosted.base);
    const attacker = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(attacker, authorizeUrl(hosted.base, client, pkce().challenge));
    const callback = await completeConsent(await allowAtSchoolMcp(attacker, consentUrl, csrf), 'allow', {
      user: alan.sub,
    });
    const victim = new CookieBrowser();
    const planted = await victim.request(callback);
    expect(planted.status).toBe(400);
    expect(planted.headers.get('location')).toBeNull();
    // The answer was used up by the refused attempt: the browser that started it cannot use it either.
    const replay = await attacker.request(callback);
    expect(replay.status).toBe(400);
  });

  it('HOST-10 keeps each school grant sealed in the store, and none of it in the MCP tokens, the files or the log', async () => {
    const { access, refresh } = await tokensFor(grace.sub);
    const grant = (await hosted.store.read(SCHOOL_GRANTS, grace.sub)) as {
      sub: string;
      accessToken: string;
      refreshToken: string;
      scopes: string[];
    };
    expect(grant).toMatchObject({
      sub: grace.sub,
      scopes: expect.arrayContaining(['openid', 'profile', 'account:read']),
    });
    for (const secret of [grant.accessToken, grant.refreshToken]) {
      expect([access, refresh]).not.toContain(secret);
      expect(hosted.logLines.join('\n')).not.toContain(secret);
      const entries = await readdir(hosted.storeDir, { recursive: true, withFileTypes: true });
      for (const entry of entries.filter((file) => file.isFile()))
        expect(await readFile(join(entry.parentPath, entry.name), 'utf8')).not.toContain(secret);
    }
  });
});
