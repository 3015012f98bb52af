import { describe, expect, it } from 'vitest';
import { createAuthorizationServer } from '../../../packages/sandbox/src/auth/index.js';
import { Router } from '../../../packages/sandbox/src/http/router.js';
import { s256Challenge } from '../../../packages/sandbox/src/auth/pkce.js';

const BASE = 'http://127.0.0.1:4000';
const REDIRECT = 'http://127.0.0.1:9/callback';

/** An authorization server alone, served in-process, with a clock the test moves. */
function inProcessServer() {
  let now = Date.UTC(2026, 2, 1);
  const server = createAuthorizationServer({
    baseUrl: BASE,
    resource: BASE,
    options: { autoApprove: true, now: () => new Date(now) },
  });
  const router = new Router();
  server.mount(router);
  const call = async (request: Request) => {
    const url = new URL(request.url);
    const { route } = router.match(request.method, url.pathname);
    if (!route) throw new Error(`no route for ${request.method} ${url.pathname}`);
    return route.handler(request, { params: route.params, url });
  };
  const form = (path: string, fields: Record<string, string>) =>
    call(
      new Request(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }),
    );
  return { server, call, form, advance: (seconds: number) => (now += seconds * 1000) };
}

async function signIn(harness: ReturnType<typeof inProcessServer>, extra: Record<string, string> = {}) {
  const registration = await harness.call(
    new Request(`${BASE}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    }),
  );
  const clientId = ((await registration.json()) as { client_id: string }).client_id;
  const verifier = 'v'.repeat(50);
  const authorize = new URL(`${BASE}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'courses:read courses:write',
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  const code = new URL((await harness.call(new Request(authorize))).headers.get('location')!).searchParams.get('code')!;
  const tokens = await harness.form('/api/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
    ...extra,
  });
  const body = (await tokens.json()) as { access_token: string; refresh_token: string };
  return { clientId, accessToken: body.access_token, refreshToken: body.refresh_token };
}

describe("verifyAccessToken, the business API's view of a bearer token", () => {
  it('describes an issued token: client, subject, scopes, resource and times', async () => {
    const harness = inProcessServer();
    const { clientId, accessToken } = await signIn(harness, { resource: BASE });
    const info = harness.server.verifyAccessToken(accessToken);
    expect(info).toEqual({
      clientId,
      subject: 'usr_owner_ada',
      scopes: ['courses:read', 'courses:write'],
      resource: BASE,
      issuedAt: Date.UTC(2026, 2, 1) / 1000,
      expiresAt: Date.UTC(2026, 2, 1) / 1000 + 3600,
    });
  });

  it('leaves the resource undefined when none was requested', async () => {
    const harness = inProcessServer();
    const { accessToken } = await signIn(harness);
    expect(harness.server.verifyAccessToken(accessToken)?.resource).toBeUndefined();
  });

  it('forgets unknown, expired and revoked tokens', async () => {
    const harness = inProcessServer();
    expect(harness.server.verifyAccessToken('sat_unknown')).toBeUndefined();
    const first = await signIn(harness);
    harness.advance(3600);
    expect(harness.server.verifyAccessToken(first.accessToken)).toBeUndefined();

    const second = await signIn(harness);
    expect(harness.server.verifyAccessToken(second.accessToken)).toBeDefined();
    await harness.form('/api/oauth/revoke', { token: second.refreshToken, client_id: second.clientId });
    expect(harness.server.verifyAccessToken(second.accessToken)).toBeUndefined();
  });
});
