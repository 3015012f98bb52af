import { afterEach, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';
import {
  LOOPBACK_REDIRECT,
  authorizationParams,
  authorizationUrl,
  authorizeRedirect,
  pkcePair,
  registerClient,
} from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function setUp(options: SandboxOptions = { autoApprove: true }) {
  sandbox = await startSandbox(options);
  const client = await registerClient(sandbox.url);
  return { base: sandbox.url, client, pkce: pkcePair() };
}

describe('authorization endpoint over HTTP', () => {
  it('PLAT-05 redirects with code, state and iss on success', async () => {
    const { base, client, pkce } = await setUp();
    const callback = await authorizeRedirect(authorizationUrl(base, authorizationParams(client.clientId, pkce)));
    expect(callback.origin + callback.pathname).toBe(LOOPBACK_REDIRECT);
    expect(callback.searchParams.get('code')).toMatch(/^sac_/);
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('iss')).toBe(base);
  });

  it('PLAT-02 shows an error page, never a redirect, for an unknown client', async () => {
    const { base, pkce } = await setUp();
    const response = await fetch(authorizationUrl(base, authorizationParams('sbx_nobody', pkce)), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('unknown client_id');
  });

  it.each([
    ['another path', 'http://127.0.0.1:53682/callback/x'],
    ['localhost instead of 127.0.0.1', 'http://localhost:53682/callback'],
    ['a look-alike host', 'http://127.0.0.1.evil.example/callback'],
    ['an https URI', 'https://127.0.0.1:53682/callback'],
  ])('PLAT-02 shows an error page, never a redirect, for %s', async (_label, redirectUri) => {
    const { base, client, pkce } = await setUp();
    const response = await fetch(
      authorizationUrl(base, authorizationParams(client.clientId, pkce, { redirect_uri: redirectUri })),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('not registered');
  });

  it('PLAT-02 accepts any loopback port (RFC 8252 §7.3) unless the exact port is required', async () => {
    const anyPort = await setUp();
    const callback = await authorizeRedirect(
      authorizationUrl(
        anyPort.base,
        authorizationParams(anyPort.client.clientId, anyPort.pkce, { redirect_uri: 'http://127.0.0.1:40404/callback' }),
      ),
    );
    expect(callback.host).toBe('127.0.0.1:40404');
    expect(callback.searchParams.get('code')).not.toBeNull();
    await sandbox!.close();

    const exact = await setUp({ autoApprove: true, exactRedirectPort: true });
    const refused = await fetch(
      authorizationUrl(
        exact.base,
        authorizationParams(exact.client.clientId, exact.pkce, { redirect_uri: 'http://127.0.0.1:40404/callback' }),
      ),
      { redirect: 'manual' },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
  });

  it.each([
    ['PLAT-01 no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['PLAT-01 code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['an unknown scope', { scope: 'openid courses:delete' }, 'invalid_scope'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['PLAT-06 an unknown resource', { resource: 'https://api.other.example' }, 'invalid_target'],
  ])('PLAT-05 redirects %s back as %s with state and iss', async (_label, overrides, error) => {
    const { base, client, pkce } = await setUp();
    const callback = await authorizeRedirect(
      authorizationUrl(base, authorizationParams(client.clientId, pkce, overrides)),
    );
    expect(callback.searchParams.get('error')).toBe(error);
    expect(callback.searchParams.get('error_description')).toEqual(expect.any(String));
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('iss')).toBe(base);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it("can put a wrong iss on the redirect, or none (fault knobs for the client's CB-01 tests)", async () => {
    const wrong = await setUp({ autoApprove: true, faults: { wrongIssOnRedirect: 'https://mixup.example' } });
    const callback = await authorizeRedirect(
      authorizationUrl(wrong.base, authorizationParams(wrong.client.clientId, wrong.pkce)),
    );
    expect(callback.searchParams.get('iss')).toBe('https://mixup.example');
    await sandbox!.close();

    const missing = await setUp({ autoApprove: true, faults: { omitIssOnRedirect: true } });
    const bare = await authorizeRedirect(
      authorizationUrl(missing.base, authorizationParams(missing.client.clientId, missing.pkce)),
    );
    expect(bare.searchParams.has('iss')).toBe(false);
    expect(bare.searchParams.get('code')).not.toBeNull();
  });
});

describe('consent page over HTTP', () => {
  it('PLAT-09 shows the page instead of redirecting when auto-approval is off', async () => {
    const { base, client, pkce } = await setUp({});
    const response = await fetch(authorizationUrl(base, authorizationParams(client.clientId, pkce)), {
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain('Flow Test Client');
    expect(html).toContain('127.0.0.1:53682');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('Read access to courses');
    expect(html).toMatch(/name="csrf_token" value="[^"]{20,}"/);
  });

  it('Allow returns a code; Deny returns access_denied with state and iss', async () => {
    const { base, client, pkce } = await setUp({});
    const allowed = await completeConsent(authorizationUrl(base, authorizationParams(client.clientId, pkce)), 'allow');
    expect(allowed.searchParams.get('code')).toMatch(/^sac_/);
    expect(allowed.searchParams.get('iss')).toBe(base);

    const denied = await completeConsent(authorizationUrl(base, authorizationParams(client.clientId, pkce)), 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('state-123');
    expect(denied.searchParams.get('iss')).toBe(base);
    expect(denied.searchParams.get('code')).toBeNull();
  });

  it('marks the scopes granted before', async () => {
    const { base, client, pkce } = await setUp({});
    await completeConsent(
      authorizationUrl(base, authorizationParams(client.clientId, pkce, { scope: 'openid courses:read' })),
      'allow',
    );
    const page = await fetch(
      authorizationUrl(
        base,
        authorizationParams(client.clientId, pkce, { scope: 'openid courses:read courses:write' }),
      ),
    );
    const html = await page.text();
    expect(html).toMatch(/data-scope="courses:read" data-granted="true"/);
    expect(html).toMatch(/data-scope="courses:write">/);
  });

  it("refuses a decision without the page's CSRF cookie, with a wrong token, from another site, without a choice, or twice", async () => {
    const { base, client, pkce } = await setUp({});
    const page = await fetch(authorizationUrl(base, authorizationParams(client.clientId, pkce)));
    const html = await page.text();
    const interaction = /name="interaction" value="([^"]+)"/.exec(html)![1]!;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
    const decide = (fields: Record<string, string>, headers: Record<string, string>) =>
      fetch(`${base}/oauth/consent`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields),
      });

    const noCookie = await decide({ interaction, csrf_token: csrf, decision: 'allow' }, {});
    expect(noCookie.status).toBe(400);
    expect(noCookie.headers.get('location')).toBeNull();
    const wrongToken = await decide({ interaction, csrf_token: `${csrf}x`, decision: 'allow' }, { cookie });
    expect(wrongToken.headers.get('location')).toBeNull();
    const foreign = await decide(
      { interaction, csrf_token: csrf, decision: 'allow' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);

    const undecided = await decide({ interaction, csrf_token: csrf, decision: 'maybe' }, { cookie });
    expect(undecided.headers.get('location')).toBeNull();

    const genuine = await decide({ interaction, csrf_token: csrf, decision: 'allow' }, { cookie });
    expect(genuine.status).toBe(303);
    expect(new URL(genuine.headers.get('location')!).searchParams.get('code')).not.toBeNull();
    const replay = await decide({ interaction, csrf_token: csrf, decision: 'allow' }, { cookie });
    expect(replay.headers.get('location')).toBeNull();
  });
});
