/**
 * Raw OAuth steps against a running sandbox for the authorization server's own tests: plain
 * fetch, no redirects followed, every answer returned for the test to inspect.
 */
import { createHash, randomBytes } from 'node:crypto';

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:53682/callback';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function toJsonAnswer(response: Response): Promise<JsonAnswer> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

export async function postJson(url: string, body: unknown): Promise<JsonAnswer> {
  return toJsonAnswer(
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  return toJsonAnswer(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    }),
  );
}

export interface RegisteredClient {
  clientId: string;
  clientSecret: string | undefined;
}

export async function registerClient(
  baseUrl: string,
  metadata: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const answer = await postJson(`${baseUrl}/api/oauth/register`, {
    client_name: 'Flow Test Client',
    application_type: 'native',
    redirect_uris: [LOOPBACK_REDIRECT],
    token_endpoint_auth_method: 'none',
    ...metadata,
  });
  if (answer.status !== 201) throw new Error(`registration failed: ${JSON.stringify(answer.body)}`);
  return { clientId: String(answer.body.client_id), clientSecret: answer.body.client_secret as string | undefined };
}

export function authorizationUrl(baseUrl: string, params: Record<string, string | undefined>): URL {
  const url = new URL(`${baseUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** The standard parameters of a valid request; override or drop (`undefined`) any of them. */
export function authorizationParams(
  clientId: string,
  pkce: Pkce,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid profile courses:read',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    ...overrides,
  };
}

/** Follows nothing: returns the redirect target, or throws with the page when there is none. */
export async function authorizeRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) throw new Error(`no redirect (${response.status}): ${(await response.text()).slice(0, 300)}`);
  return new URL(location);
}

export interface CodeGrant {
  client: RegisteredClient;
  pkce: Pkce;
  code: string;
}

/** Registers a client and runs an auto-approved authorization up to the code. */
export async function obtainCode(
  baseUrl: string,
  options: { scope?: string; resource?: string; client?: RegisteredClient } = {},
): Promise<CodeGrant> {
  const client = options.client ?? (await registerClient(baseUrl));
  const pkce = pkcePair();
  const callback = await authorizeRedirect(
    authorizationUrl(
      baseUrl,
      authorizationParams(client.clientId, pkce, {
        scope: options.scope ?? 'openid profile courses:read',
        resource: options.resource,
      }),
    ),
  );
  const code = callback.searchParams.get('code');
  if (code === null) throw new Error(`no code: ${callback.search}`);
  return { client, pkce, code };
}

export function exchangeCode(
  baseUrl: string,
  grant: CodeGrant,
  overrides: Record<string, string | undefined> = {},
): Promise<JsonAnswer> {
  const fields: Record<string, string | undefined> = {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: grant.client.clientId,
    code_verifier: grant.pkce.verifier,
    ...(grant.client.clientSecret === undefined ? {} : { client_secret: grant.client.clientSecret }),
    ...overrides,
  };
  return postForm(`${baseUrl}/api/oauth/token`, definedFields(fields));
}

export function refresh(
  baseUrl: string,
  client: RegisteredClient,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<JsonAnswer> {
  return postForm(`${baseUrl}/api/oauth/token`, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret }),
    ...extra,
  });
}

export async function userinfo(baseUrl: string, accessToken: string): Promise<JsonAnswer> {
  return toJsonAnswer(
    await fetch(`${baseUrl}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }),
  );
}

function definedFields(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
