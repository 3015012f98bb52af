import { afterEach, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import {
  authorizationParams,
  authorizationUrl,
  pkcePair,
  postForm,
  postJson,
  registerClient,
  userinfo,
  type JsonAnswer,
} from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const CALLBACK = 'https://mcp.school.example/oauth/callback';

async function start(options: { autoApprove?: boolean } = {}): Promise<RunningSandbox> {
  sandbox = await startSandbox(options);
  return sandbox;
}

/** Runs the consent page as `user` (or the preselected one) and exchanges the code. */
async function signInAs(
  base: string,
  user: string | undefined,
  scope = 'openid profile email account:read',
): Promise<JsonAnswer> {
  const client = await registerClient(base);
  const pkce = pkcePair();
  const callback = await completeConsent(
    authorizationUrl(base, authorizationParams(client.clientId, pkce, { scope })),
    'allow',
    user === undefined ? {} : { user },
  );
  return postForm(`${base}/api/oauth/token`, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: 'http://127.0.0.1:53682/callback',
    client_id: client.clientId,
    code_verifier: pkce.verifier,
  });
}

function idTokenClaims(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('the sandbox staff', () => {
  it('has at least three staff members with different roles', () => {
    expect(SANDBOX_STAFF.length).toBeGreaterThanOrEqual(3);
    expect(new Set(SANDBOX_STAFF.map((member) => member.roles.join(','))).size).toBe(SANDBOX_STAFF.length);
  });

  it('PLAT-09 offers every staff member on the consent page, the first one preselected', async () => {
    const { url: base } = await start();
    const client = await registerClient(base);
    const page = await (await fetch(authorizationUrl(base, authorizationParams(client.clientId, pkcePair())))).text();
    for (const member of SANDBOX_STAFF) expect(page).toContain(`<option value="${member.sub}"`);
    expect(page).toContain(`<option value="${SANDBOX_STAFF[0]!.sub}" selected>`);
    expect(page).toContain('a program on this computer');
  });

  it.each(SANDBOX_STAFF.map((member) => [member.name, member] as const))(
    'PLAT-12 a token approved by %s speaks for that person in userinfo, the ID token and the account',
    async (_name, member) => {
      const { url: base } = await start();
      const tokens = await signInAs(base, member.sub);
      expect(tokens.status).toBe(200);
      const accessToken = String(tokens.body.access_token);
      const info = await userinfo(base, accessToken);
      expect(info.body).toMatchObject({
        sub: member.sub,
        name: member.name,
        email: member.email,
        roles: [...member.roles],
      });
      expect(idTokenClaims(String(tokens.body.id_token))).toMatchObject({ sub: member.sub, name: member.name });
      const account = await (
        await fetch(`${base}/api/v1/account`, { headers: { authorization: `Bearer ${accessToken}` } })
      ).json();
      expect(account).toMatchObject({
        id: member.sub,
        email: member.email,
        name: member.name,
        roles: [...member.roles],
      });
    },
  );

  it("PLAT-12 keeps each staff member's account preferences their own", async () => {
    const { url: base } = await start();
    const ada = String((await signInAs(base, SANDBOX_STAFF[0]!.sub, 'account:read account:write')).body.access_token);
    const grace = String((await signInAs(base, SANDBOX_STAFF[1]!.sub, 'account:read account:write')).body.access_token);
    const patch = await fetch(`${base}/api/v1/account`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${grace}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rear Admiral Hopper' }),
    });
    expect(patch.status).toBe(200);
    const read = async (token: string) =>
      (
        (await (await fetch(`${base}/api/v1/account`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          name: string;
        }
      ).name;
    expect(await read(grace)).toBe('Rear Admiral Hopper');
    expect(await read(ada)).toBe(SANDBOX_STAFF[0]!.name);
  });

  it('PLAT-12 signs in the first staff member when the form names nobody, and when consent is auto-approved', async () => {
    const { url: base } = await start();
    expect((await userinfo(base, String((await signInAs(base, undefined)).body.access_token))).body.sub).toBe(
      SANDBOX_STAFF[0]!.sub,
    );
    await sandbox!.close();
    const approved = await start({ autoApprove: true });
    expect(
      (await userinfo(approved.url, String((await signInAs(approved.url, undefined)).body.access_token))).body.sub,
    ).toBe(SANDBOX_STAFF[0]!.sub);
  });

  it('PLAT-12 refuses a consent form naming someone who is not on the staff', async () => {
    const { url: base } = await start();
    const client = await registerClient(base);
    await expect(
      completeConsent(authorizationUrl(base, authorizationParams(client.clientId, pkcePair())), 'allow', {
        user: 'usr_intruder',
      }),
    ).rejects.toThrow(/no staff member/);
  });
});

describe('registered integrations', () => {
  it('PLAT-11 keeps refusing an https callback at open registration', async () => {
    const { url: base } = await start();
    const answer = await postJson(`${base}/api/oauth/register`, {
      client_name: 'web',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_redirect_uri');
  });

  it('PLAT-11 signs a staff member in through an integration with an https callback and client_secret_post', async () => {
    const running = await start();
    const integration = running.registerIntegration({ clientName: 'school-mcp (hosted)', redirectUris: [CALLBACK] });
    expect(integration.clientId).toMatch(/^sbxi_/);
    const pkce = pkcePair();
    const url = authorizationUrl(
      running.url,
      authorizationParams(integration.clientId, pkce, { redirect_uri: CALLBACK, scope: 'openid profile' }),
    );
    const page = await (await fetch(url)).text();
    expect(page).toContain('mcp.school.example');
    expect(page).toContain('a web service');
    // The callback is never fetched: its code is read from the redirect.
    const callback = await completeConsent(url, 'allow', { user: SANDBOX_STAFF[2]!.sub });
    expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
    expect(callback.searchParams.get('iss')).toBe(running.url);
    const exchange = (extra: Record<string, string>) =>
      postForm(`${running.url}/api/oauth/token`, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: CALLBACK,
        client_id: integration.clientId,
        code_verifier: pkce.verifier,
        ...extra,
      });
    expect((await exchange({})).body.error).toBe('invalid_client');
    expect((await exchange({ client_secret: `${integration.clientSecret}x` })).body.error).toBe('invalid_client');
    const tokens = await exchange({ client_secret: integration.clientSecret });
    expect(tokens.status).toBe(200);
    expect((await userinfo(running.url, String(tokens.body.access_token))).body.sub).toBe(SANDBOX_STAFF[2]!.sub);
  });

  it("PLAT-11 matches an integration's loopback callback with its port, and refuses any other", async () => {
    const running = await start({ autoApprove: true });
    const integration = running.registerIntegration({
      clientName: 'hosted test',
      redirectUris: ['http://127.0.0.1:40404/oauth/callback'],
    });
    const pkce = pkcePair();
    const exact = await fetch(
      authorizationUrl(
        running.url,
        authorizationParams(integration.clientId, pkce, { redirect_uri: 'http://127.0.0.1:40404/oauth/callback' }),
      ),
      { redirect: 'manual' },
    );
    expect(exact.status).toBe(302);
    const otherPort = await fetch(
      authorizationUrl(
        running.url,
        authorizationParams(integration.clientId, pkce, { redirect_uri: 'http://127.0.0.1:40405/oauth/callback' }),
      ),
      { redirect: 'manual' },
    );
    expect(otherPort.status).toBe(400);
    expect(otherPort.headers.get('location')).toBeNull();
  });

  it.each([
    ['plain http on a name', 'http://mcp.school.example/oauth/callback'],
    ['a fragment', 'https://mcp.school.example/oauth/callback#x'],
    ['user information', 'https://user@mcp.school.example/oauth/callback'],
    ['a script scheme', 'javascript:alert(1)'],
    ['a non-canonical spelling', 'https://MCP.school.example/oauth/callback'],
  ])('PLAT-11 refuses to register an integration callback with %s', async (_label, callback) => {
    const running = await start();
    expect(() => running.registerIntegration({ clientName: 'bad', redirectUris: [callback] })).toThrow(RangeError);
  });
});
