import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { exchangeCode, obtainCode, postForm, refresh, registerClient, userinfo } from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function signedIn(scope = 'openid profile email courses:read') {
  sandbox ??= await startSandbox({ autoApprove: true });
  const base = sandbox.url;
  const grant = await obtainCode(base, { scope });
  const tokens = await exchangeCode(base, grant);
  return {
    base,
    client: grant.client,
    accessToken: String(tokens.body.access_token),
    refreshToken: String(tokens.body.refresh_token),
  };
}

describe('userinfo over HTTP', () => {
  it('returns sub, name and email per scope, org_id and roles', async () => {
    const { base, accessToken } = await signedIn();
    const answer = await userinfo(base, accessToken);
    expect(answer.body).toEqual({
      sub: 'usr_owner_ada',
      name: 'Ada Lovelace',
      email: 'ada@sandbox-academy.test',
      email_verified: true,
      org_id: 'org_sandbox_academy',
      roles: ['owner', 'admin'],
    });
  });

  it('leaves out what the scopes do not cover', async () => {
    const { base, accessToken } = await signedIn('openid');
    expect((await userinfo(base, accessToken)).body).toEqual({
      sub: 'usr_owner_ada',
      org_id: 'org_sandbox_academy',
      roles: ['owner', 'admin'],
    });
  });

  it('PLAT-07 answers an unknown token with 401 invalid_token and a challenge pointing to resource metadata', async () => {
    const { base } = await signedIn();
    const answer = await userinfo(base, 'sat_forged');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'invalid_token' });
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  });

  it('PLAT-07 challenges a request without a token, without an error code (RFC 6750 §3.1)', async () => {
    const { base } = await signedIn();
    const response = await fetch(`${base}/api/oauth/userinfo`);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm=/);
    expect(challenge).not.toContain('error=');
  });

  it('PLAT-07 answers a token without openid with 403 insufficient_scope naming the scope', async () => {
    const { base, accessToken } = await signedIn('courses:read');
    const answer = await userinfo(base, accessToken);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(answer.headers.get('www-authenticate')).toContain('scope="openid"');
  });
});

describe('revocation (RFC 7009) over HTTP', () => {
  it('PLAT-08 answers 200 for an unknown token', async () => {
    const { base, client } = await signedIn();
    const answer = await postForm(`${base}/api/oauth/revoke`, { token: 'srt_unknown', client_id: client.clientId });
    expect(answer.status).toBe(200);
  });

  it('PLAT-08 revoking the refresh token ends the access tokens issued from it', async () => {
    const { base, client, accessToken, refreshToken } = await signedIn();
    const rotated = await refresh(base, client, refreshToken);
    expect(
      (
        await postForm(`${base}/api/oauth/revoke`, {
          token: String(rotated.body.refresh_token),
          client_id: client.clientId,
        })
      ).status,
    ).toBe(200);
    expect((await userinfo(base, accessToken)).status).toBe(401);
    expect((await userinfo(base, String(rotated.body.access_token))).status).toBe(401);
    expect((await refresh(base, client, String(rotated.body.refresh_token))).body.error).toBe('invalid_grant');
  });

  it('revoking an access token ends that token only', async () => {
    const { base, client, accessToken, refreshToken } = await signedIn();
    await postForm(`${base}/api/oauth/revoke`, {
      token: accessToken,
      client_id: client.clientId,
      token_type_hint: 'access_token',
    });
    expect((await userinfo(base, accessToken)).status).toBe(401);
    expect((await refresh(base, client, refreshToken)).status).toBe(200);
  });

  it('does not revoke a token of another client', async () => {
    const { base, accessToken, refreshToken, client } = await signedIn();
    const other = await registerClient(base);
    const answer = await postForm(`${base}/api/oauth/revoke`, { token: refreshToken, client_id: other.clientId });
    expect(answer.body.error).toBe('invalid_request');
    expect((await userinfo(base, accessToken)).status).toBe(200);
    expect((await refresh(base, client, refreshToken)).status).toBe(200);
  });

  it('authenticates the client: unknown client 401, missing token 400', async () => {
    const { base, client } = await signedIn();
    expect((await postForm(`${base}/api/oauth/revoke`, { token: 'x', client_id: 'sbx_nobody' })).status).toBe(401);
    expect((await postForm(`${base}/api/oauth/revoke`, { client_id: client.clientId })).body.error).toBe(
      'invalid_request',
    );
  });
});

describe('introspection (RFC 7662) over HTTP', () => {
  it('describes an active access token and a refresh token of the asking client', async () => {
    const { base, client, accessToken, refreshToken } = await signedIn('openid courses:read');
    const access = await postForm(`${base}/api/oauth/introspect`, { token: accessToken, client_id: client.clientId });
    expect(access.body).toMatchObject({
      active: true,
      scope: 'openid courses:read',
      client_id: client.clientId,
      sub: 'usr_owner_ada',
      token_type: 'Bearer',
      iss: base,
    });
    expect(Number(access.body.exp) - Number(access.body.iat)).toBe(3600);
    const refreshAnswer = await postForm(`${base}/api/oauth/introspect`, {
      token: refreshToken,
      client_id: client.clientId,
    });
    expect(refreshAnswer.body).toMatchObject({ active: true, token_type: 'refresh_token' });
  });

  it('says only active:false for revoked, unknown and foreign tokens', async () => {
    const { base, client, accessToken } = await signedIn();
    const other = await registerClient(base);
    expect(
      (await postForm(`${base}/api/oauth/introspect`, { token: accessToken, client_id: other.clientId })).body,
    ).toEqual({ active: false });
    expect(
      (await postForm(`${base}/api/oauth/introspect`, { token: 'sat_unknown', client_id: client.clientId })).body,
    ).toEqual({ active: false });
    await postForm(`${base}/api/oauth/revoke`, { token: accessToken, client_id: client.clientId });
    expect(
      (await postForm(`${base}/api/oauth/introspect`, { token: accessToken, client_id: client.clientId })).body,
    ).toEqual({ active: false });
  });
});
