/**
 * Obtains real tokens from a running sandbox over HTTP, the way a public loopback client does:
 * register, authorize (the sandbox must run with `autoApprove: true`), exchange the code.
 * Plain fetch only, so tests of the business API do not depend on the bridge's OAuth code.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface SandboxTokens {
  accessToken: string;
  refreshToken: string;
  scope: string;
  expiresIn: number;
  clientId: string;
}

const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export async function obtainTokens(baseUrl: string, scopes: string[], options: { resource?: string } = {}): Promise<SandboxTokens> {
  const registration = await postJson(`${baseUrl}/api/oauth/register`, {
    client_name: 'sandbox test client',
    application_type: 'native',
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  const clientId = String(registration.client_id);

  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(`${baseUrl}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: scopes.join(' '),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    ...(options.resource === undefined ? {} : { resource: options.resource }),
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const location = redirect.headers.get('location');
  if (location === null) {
    throw new Error(`authorize answered ${redirect.status} without a redirect; was the sandbox started with autoApprove: true?`);
  }
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (code === null || callback.searchParams.get('state') !== state) {
    throw new Error(`authorize redirected without a code: ${callback.search}`);
  }

  const token = await fetch(`${baseUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      ...(options.resource === undefined ? {} : { resource: options.resource }),
    }),
  });
  const body = (await token.json()) as Record<string, unknown>;
  if (token.status !== 200) throw new Error(`token exchange failed (${token.status}): ${JSON.stringify(body)}`);
  return {
    accessToken: String(body.access_token),
    refreshToken: String(body.refresh_token),
    scope: String(body.scope),
    expiresIn: Number(body.expires_in),
    clientId,
  };
}

async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`registration failed (${response.status}): ${JSON.stringify(json)}`);
  return json;
}
