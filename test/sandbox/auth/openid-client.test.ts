/**
 * An independent client, openid-client v6, runs the whole contract against the sandbox: if the
 * sandbox bent a rule that a strict client enforces, these tests fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@school-mcp/sandbox';

const REDIRECT = 'http://127.0.0.1:53682/callback';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function register(options: SandboxOptions, algorithm: 'oidc' | 'oauth2' = 'oidc'): Promise<oidc.Configuration> {
  sandbox = await startSandbox({ autoApprove: true, ...options });
  return oidc.dynamicClientRegistration(
    new URL(sandbox.url),
    {
      client_name: 'openid-client conformance',
      application_type: 'native',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    oidc.None(),
    // Plain http is all a 127.0.0.1 test server speaks; openid-client refuses it unless told.
    { algorithm, execute: [oidc.allowInsecureRequests] },
  );
}

/** Sends the browser's request and returns the callback URL the sandbox redirected to. */
async function authorize(config: oidc.Configuration, resource: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile email courses:read',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    resource,
  });
  const response = await fetch(url, { redirect: 'manual' });
  return { callback: new URL(response.headers.get('location')!), verifier, state, nonce };
}

describe('openid-client v6 against the sandbox', () => {
  it('completes discovery, registration, PKCE, userinfo, refresh with rotation, introspection and revocation', async () => {
    const config = await register({});
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(sandbox!.issuer);
    expect(metadata.supportsPKCE()).toBe(true);
    expect(config.clientMetadata().client_id).toMatch(/^sbx_/);

    const resource = sandbox!.resource;
    const { callback, verifier, state, nonce } = await authorize(config, resource);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true },
      { resource },
    );
    expect(tokens.claims()?.sub).toBe('usr_owner_ada');
    expect(tokens.scope).toBe('openid profile email courses:read');

    const user = await oidc.fetchUserInfo(config, tokens.access_token, 'usr_owner_ada');
    expect(user).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@sandbox-academy.test',
      org_id: 'org_sandbox_academy',
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource });
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(introspection).toMatchObject({
      active: true,
      client_id: config.clientMetadata().client_id,
      sub: 'usr_owner_ada',
      aud: resource,
    });

    await oidc.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: 'refresh_token' });
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
  });

  it('PLAT-04 sees invalid_grant when it reuses a rotated refresh token', async () => {
    const config = await register({}, 'oauth2');
    const { callback, verifier, state, nonce } = await authorize(config, sandbox!.resource);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const reuse = oidc.refreshTokenGrant(config, tokens.refresh_token!);
    await expect(reuse).rejects.toBeInstanceOf(oidc.ResponseBodyError);
    await expect(reuse).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('PLAT-05 rejects a callback whose iss is not the issuer (the wrong-iss fault works as meant)', async () => {
    const config = await register({ faults: { wrongIssOnRedirect: 'https://mixup.example' } });
    const { callback, verifier, state } = await authorize(config, sandbox!.resource);
    const exchange = oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await expect(exchange).rejects.toMatchObject({
      code: 'OAUTH_INVALID_RESPONSE',
      cause: { message: expect.stringContaining('"iss"') },
    });
    expect(sandbox!.countRequests('/api/oauth/token')).toBe(0);
  });

  it('rejects metadata whose issuer is not the sandbox (the wrong-issuer fault works as meant)', async () => {
    await expect(register({ faults: { wrongIssuerInMetadata: 'https://mixup.example' } })).rejects.toThrow(/issuer/);
    expect(sandbox!.countRequests('/api/oauth/register')).toBe(0);
  });
});
