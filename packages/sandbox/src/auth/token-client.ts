/**
 * Real tokens from a running sandbox, obtained the way a public loopback client does: register,
 * authorize with PKCE, answer the consent page (or follow the auto-approve redirect), exchange the
 * code. For tests and benchmarks that need a token without going through the bridge; plain fetch,
 * so it shares nothing with the bridge's OAuth code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { completeConsent } from './consent-client.js';

export interface SandboxTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly scope: string;
  readonly expiresIn: number;
  readonly clientId: string;
}

/** Nothing listens here: the code is read from the redirect URL, which is never fetched. */
const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

export async function obtainSandboxTokens(
  baseUrl: string,
  scopes: readonly string[],
  options: { resource?: string } = {},
): Promise<SandboxTokens> {
  const registration = await fetch(`${baseUrl}/api/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'sandbox token client',
      application_type: 'native',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  const registered = (await registration.json()) as Record<string, unknown>;
  if (registration.status !== 201)
    throw new Error(`registration failed (${registration.status}): ${JSON.stringify(registered)}`);
  const clientId = String(registered.client_id);

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
  const callback = await completeConsent(authorize, 'allow');
  const code = callback.searchParams.get('code');
  if (code === null || callback.searchParams.get('state') !== state)
    throw new Error(`authorize redirected without a code: ${callback.search}`);

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
