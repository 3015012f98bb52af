import { afterEach, describe, expect, it } from 'vitest';
import { createPublicKey, createVerify } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { ALL_SCOPES } from '../../../packages/sandbox/src/scopes.js';
import { exchangeCode, obtainCode } from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function getJson(url: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('discovery over HTTP', () => {
  it('PLAT-10 serves RFC 8414 metadata whose issuer is the base URL and whose endpoints all answer', async () => {
    sandbox = await startSandbox();
    const { status, headers, body } = await getJson(`${sandbox.url}/.well-known/oauth-authorization-server`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body).toMatchObject({
      issuer: sandbox.url,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      scopes_supported: ALL_SCOPES,
    });
    // Each advertised endpoint is routed (a wrong method is 405, never 404).
    for (const name of ['token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'introspection_endpoint']) {
      const response = await fetch(String(body[name]));
      expect(response.status, name).toBe(405);
    }
    for (const name of ['jwks_uri', 'userinfo_endpoint', 'authorization_endpoint']) {
      const response = await fetch(String(body[name]), { redirect: 'manual' });
      expect(response.status, name).not.toBe(404);
    }
  });

  it('serves the same document at the OpenID Connect discovery path', async () => {
    sandbox = await startSandbox();
    const oauth = await getJson(`${sandbox.url}/.well-known/oauth-authorization-server`);
    const oidc = await getJson(`${sandbox.url}/.well-known/openid-configuration`);
    expect(oidc.body).toEqual(oauth.body);
    expect(oidc.body).toMatchObject({
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  it('serves RFC 9728 protected resource metadata that names this authorization server', async () => {
    sandbox = await startSandbox();
    const { body } = await getJson(`${sandbox.url}/.well-known/oauth-protected-resource`);
    expect(body).toMatchObject({
      resource: sandbox.resource,
      authorization_servers: [sandbox.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ALL_SCOPES,
    });
  });

  it('publishes the key that verifies its ID tokens', async () => {
    sandbox = await startSandbox({ autoApprove: true });
    const grant = await obtainCode(sandbox.url, { scope: 'openid profile' });
    const idToken = String((await exchangeCode(sandbox.url, grant)).body.id_token);
    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const { body: jwks } = await getJson(`${sandbox.url}/api/oauth/jwks`);
    const keys = jwks.keys as Array<Record<string, string>>;
    const kid = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string }).kid;
    const jwk = keys.find((key) => key.kid === kid);
    expect(jwk).toBeDefined();
    expect(jwk).not.toHaveProperty('d');
    const key = createPublicKey({ key: jwk!, format: 'jwk' });
    expect(
      createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(key, Buffer.from(signature, 'base64url')),
    ).toBe(true);
  });

  it("serves the agent walkthrough with this instance's real URLs", async () => {
    sandbox = await startSandbox();
    const response = await fetch(`${sandbox.url}/auth.md`);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await response.text();
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/api/oauth/register',
      '/oauth/authorize',
      '/api/oauth/token',
      '/api/oauth/revoke',
      '/openapi.json',
    ]) {
      expect(text).toContain(`${sandbox.url}${path}`);
    }
    expect(text.indexOf('Discover')).toBeLessThan(text.indexOf('Register'));
    expect(text.indexOf('Refresh')).toBeLessThan(text.indexOf('Revoke'));
  });

  it("can publish a wrong issuer and leave S256 out (fault knobs for the client's MD-01 and AZ-03 tests)", async () => {
    sandbox = await startSandbox({
      faults: { wrongIssuerInMetadata: 'https://mixup.example', omitS256FromMetadata: true },
    });
    const { body } = await getJson(`${sandbox.url}/.well-known/oauth-authorization-server`);
    expect(body.issuer).toBe('https://mixup.example');
    expect(body).not.toHaveProperty('code_challenge_methods_supported');
    expect((await getJson(`${sandbox.url}/.well-known/openid-configuration`)).body.issuer).toBe(
      'https://mixup.example',
    );
  });

  it('answers chosen paths with 5xx, HTML or 429 and counts every request', async () => {
    sandbox = await startSandbox({
      faults: {
        serverErrorPaths: { '/.well-known/oauth-authorization-server': 503 },
        htmlPaths: ['/.well-known/openid-configuration'],
        rateLimitPaths: { '/api/oauth/register': 120 },
      },
    });
    expect((await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).status).toBe(503);
    const html = await fetch(`${sandbox.url}/.well-known/openid-configuration`);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const limited = await fetch(`${sandbox.url}/api/oauth/register`, { method: 'POST' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('120');
    expect(sandbox.countRequests('/api/oauth/register', 'POST')).toBe(1);
    expect(sandbox.countRequests('/api/oauth/token')).toBe(0);
  });
});
