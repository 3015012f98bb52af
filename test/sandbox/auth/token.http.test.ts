import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';
import {
  LOOPBACK_REDIRECT,
  exchangeCode,
  obtainCode,
  postForm,
  refresh,
  registerClient,
  userinfo,
} from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A clock the test moves, so lifetimes expire without waiting. */
function testClock() {
  let now = Date.UTC(2026, 0, 1);
  return { now: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
}

async function start(options: SandboxOptions = {}): Promise<string> {
  sandbox = await startSandbox({ autoApprove: true, ...options });
  return sandbox.url;
}

describe('token endpoint: authorization_code', () => {
  it('issues opaque tokens with expires_in, scope, a refresh token and no-store', async () => {
    const base = await start();
    const answer = await exchangeCode(base, await obtainCode(base, { scope: 'courses:read' }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'courses:read' });
    expect(answer.body.access_token).toMatch(/^sat_[A-Za-z0-9_-]{43}$/);
    expect(answer.body.refresh_token).toMatch(/^srt_[A-Za-z0-9_-]{43}$/);
    expect(answer.body).not.toHaveProperty('id_token');
  });

  it('adds a signed ID token for the client when openid was granted', async () => {
    const base = await start();
    const grant = await obtainCode(base, { scope: 'openid email' });
    const idToken = String((await exchangeCode(base, grant)).body.id_token);
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: base,
      aud: grant.client.clientId,
      sub: 'usr_owner_ada',
      email: 'ada@sandbox-academy.test',
    });
    expect(claims).not.toHaveProperty('name');
  });

  it.each(['grant_type', 'code', 'redirect_uri', 'client_id', 'code_verifier'])(
    'requires %s (invalid_request)',
    async (missing) => {
      const base = await start();
      const answer = await exchangeCode(base, await obtainCode(base), { [missing]: undefined });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(missing) });
    },
  );

  it('accepts only a form body', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const response = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: grant.code }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('PLAT-01 refuses a wrong verifier with invalid_grant, and the code still works for the right one', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const wrong = await exchangeCode(base, grant, { code_verifier: 'x'.repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await exchangeCode(base, grant)).status).toBe(200);
  });

  it('PLAT-03 refuses a second redemption and revokes what the first one issued', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const first = await exchangeCode(base, grant);
    expect((await userinfo(base, String(first.body.access_token))).status).toBe(200);
    const second = await exchangeCode(base, grant);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await userinfo(base, String(first.body.access_token))).status).toBe(401);
    expect((await refresh(base, grant.client, String(first.body.refresh_token))).body.error).toBe('invalid_grant');
  });

  it('refuses an expired code', async () => {
    const clock = testClock();
    const base = await start({ now: clock.now, codeTtlSeconds: 30 });
    const grant = await obtainCode(base);
    clock.advance(31);
    expect((await exchangeCode(base, grant)).body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it("refuses a redirect_uri other than the authorization request's, and another client's code", async () => {
    const base = await start();
    const grant = await obtainCode(base);
    expect((await exchangeCode(base, grant, { redirect_uri: 'http://127.0.0.1:9/callback' })).body.error).toBe(
      'invalid_grant',
    );
    const thief = await registerClient(base);
    expect((await exchangeCode(base, { ...grant, client: thief })).body.error).toBe('invalid_grant');
  });

  it('refuses an unknown client with 401 invalid_client', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const answer = await exchangeCode(base, grant, { client_id: 'sbx_unknown' });
    expect(answer).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('refuses an unsupported grant type', async () => {
    const base = await start();
    const client = await registerClient(base);
    const answer = await postForm(`${base}/api/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
    });
    expect(answer.body.error).toBe('unsupported_grant_type');
  });
});

describe('token endpoint: confidential clients (client_secret_post)', () => {
  it('authenticates with the secret in the body, and refuses a wrong, missing or Basic secret with 401', async () => {
    const base = await start();
    const client = await registerClient(base, { token_endpoint_auth_method: 'client_secret_post' });
    expect((await exchangeCode(base, await obtainCode(base, { client }))).status).toBe(200);

    const wrong = await exchangeCode(base, await obtainCode(base, { client }), { client_secret: 'guess' });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const missing = await exchangeCode(base, await obtainCode(base, { client }), { client_secret: undefined });
    expect(missing).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    const basic = await postForm(
      `${base}/api/oauth/token`,
      {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: LOOPBACK_REDIRECT,
        client_id: client.clientId,
        code_verifier: 'v'.repeat(43),
      },
      { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}` },
    );
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
});

describe('token endpoint: resource indicators (RFC 8707)', () => {
  it('PLAT-06 binds the token to the requested resource, visible through introspection', async () => {
    const base = await start();
    const grant = await obtainCode(base, { resource: base });
    const tokens = await exchangeCode(base, grant, { resource: base });
    const introspection = await postForm(`${base}/api/oauth/introspect`, {
      token: String(tokens.body.access_token),
      client_id: grant.client.clientId,
    });
    expect(introspection.body).toMatchObject({ active: true, aud: base });
  });

  it('PLAT-06 refuses an unknown resource with invalid_target', async () => {
    const base = await start();
    const answer = await exchangeCode(base, await obtainCode(base), { resource: 'https://api.other.example' });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });
});

describe('token endpoint: refresh_token', () => {
  it('PLAT-04 rotates the refresh token on every use', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const first = await exchangeCode(base, grant);
    const second = await refresh(base, grant.client, String(first.body.refresh_token));
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(second.body.scope).toBe('openid profile courses:read');
    const third = await refresh(base, grant.client, String(second.body.refresh_token));
    expect(third.status).toBe(200);
    expect(sandbox!.stats()).toEqual({ refreshGrants: 2, refreshTokenReuses: 0, reusedBy: [] });
  });

  it('PLAT-04 treats reuse of a rotated refresh token as theft and revokes the whole family', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const first = await exchangeCode(base, grant);
    const second = await refresh(base, grant.client, String(first.body.refresh_token));
    const reuse = await refresh(base, grant.client, String(first.body.refresh_token));
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await refresh(base, grant.client, String(second.body.refresh_token))).body.error).toBe('invalid_grant');
    expect((await userinfo(base, String(second.body.access_token))).status).toBe(401);
    // Counted for tests that must show no rotated-out token ever reached the school.
    expect(sandbox!.stats()).toEqual({ refreshGrants: 1, refreshTokenReuses: 1, reusedBy: ['usr_owner_ada'] });
  });

  it('narrows the scope on request and refuses to widen it', async () => {
    const base = await start();
    const grant = await obtainCode(base);
    const first = await exchangeCode(base, grant);
    const narrowed = await refresh(base, grant.client, String(first.body.refresh_token), { scope: 'courses:read' });
    expect(narrowed.body.scope).toBe('courses:read');
    const widened = await refresh(base, grant.client, String(narrowed.body.refresh_token), {
      scope: 'courses:read courses:write',
    });
    expect(widened.body.error).toBe('invalid_scope');
  });

  it("refuses another client's refresh token and an expired one", async () => {
    const clock = testClock();
    const base = await start({ now: clock.now, refreshTokenTtlSeconds: 100 });
    const grant = await obtainCode(base);
    const tokens = await exchangeCode(base, grant);
    const other = await registerClient(base);
    expect((await refresh(base, other, String(tokens.body.refresh_token))).body.error).toBe('invalid_grant');
    clock.advance(101);
    expect((await refresh(base, grant.client, String(tokens.body.refresh_token))).body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it('PLAT-07 an expired access token gets 401 invalid_token', async () => {
    const clock = testClock();
    const base = await start({ now: clock.now, accessTokenTtlSeconds: 60 });
    const tokens = await exchangeCode(base, await obtainCode(base));
    expect(tokens.body.expires_in).toBe(60);
    clock.advance(60);
    const answer = await userinfo(base, String(tokens.body.access_token));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('can return the same refresh token again when rotation is switched off (fault knob)', async () => {
    const base = await start({ faults: { disableRefreshRotation: true } });
    const grant = await obtainCode(base);
    const first = await exchangeCode(base, grant);
    const second = await refresh(base, grant.client, String(first.body.refresh_token));
    expect(second.body.refresh_token).toBe(first.body.refresh_token);
    expect((await refresh(base, grant.client, String(first.body.refresh_token))).status).toBe(200);
  });
});
