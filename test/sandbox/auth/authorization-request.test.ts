import { describe, expect, it } from 'vitest';
import type { Client } from '../../../packages/sandbox/src/auth/client.js';
import { checkAuthorizationRequest } from '../../../packages/sandbox/src/auth/authorization-request.js';
import { s256Challenge } from '../../../packages/sandbox/src/auth/pkce.js';

const RESOURCE = 'http://127.0.0.1:4000';
const REDIRECT = 'http://127.0.0.1:8765/callback';
const client: Client = {
  clientId: 'sbx_test',
  clientSecret: undefined,
  clientName: 'Test',
  applicationType: 'native',
  redirectUris: [REDIRECT],
  tokenEndpointAuthMethod: 'none',
  grantTypes: ['authorization_code', 'refresh_token'],
  clientIdIssuedAt: 0,
  source: 'registration',
};
const found = { ok: true as const, client };
const options = { exactRedirectPort: false, resource: RESOURCE };

function search(overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT,
    scope: 'openid courses:read',
    code_challenge: s256Challenge('v'.repeat(43)),
    code_challenge_method: 'S256',
    state: 'xyz',
    ...overrides,
  };
  return new URLSearchParams(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

describe('authorization request checks', () => {
  it('accepts a complete request and keeps state, scopes and resource', () => {
    const check = checkAuthorizationRequest(search({ resource: RESOURCE }), found, options);
    expect(check.kind).toBe('valid');
    expect(check.kind === 'valid' && check.request).toMatchObject({
      state: 'xyz',
      scopes: ['openid', 'courses:read'],
      resource: RESOURCE,
    });
  });

  it('PLAT-02 shows a page, never a redirect, for an unknown client or an unregistered redirect URI', () => {
    expect(checkAuthorizationRequest(search(), { ok: false, reason: 'unknown client_id' }, options).kind).toBe(
      'error-page',
    );
    expect(
      checkAuthorizationRequest(search({ redirect_uri: 'http://127.0.0.1:8765/other' }), found, options).kind,
    ).toBe('error-page');
    expect(checkAuthorizationRequest(search({ redirect_uri: undefined }), found, options).kind).toBe('error-page');
    const twice = search();
    twice.append('redirect_uri', 'http://127.0.0.1:9/evil');
    expect(checkAuthorizationRequest(twice, found, options).kind).toBe('error-page');
  });

  it.each([
    ['PLAT-01 a missing code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['PLAT-01 the plain method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['PLAT-01 a missing method', { code_challenge_method: undefined }, 'invalid_request'],
    ['an unknown scope', { scope: 'openid courses:admin' }, 'invalid_scope'],
    ['a missing scope', { scope: undefined }, 'invalid_scope'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a missing response_type', { response_type: undefined }, 'invalid_request'],
    ['PLAT-06 an unknown resource', { resource: 'https://other.example' }, 'invalid_target'],
    ['a request object', { request: 'eyJ...' }, 'invalid_request'],
  ])('redirects %s back as %s with the state', (_label, overrides, error) => {
    const check = checkAuthorizationRequest(search(overrides), found, options);
    expect(check).toMatchObject({ kind: 'redirect-error', error, state: 'xyz', redirectUri: REDIRECT });
  });

  it('refuses a repeated parameter (RFC 6749 §3.1)', () => {
    const twice = search();
    twice.append('scope', 'courses:write');
    expect(checkAuthorizationRequest(twice, found, options)).toMatchObject({
      kind: 'redirect-error',
      error: 'invalid_request',
    });
  });

  it('redirects to the port the client asked for, not the registered one', () => {
    const check = checkAuthorizationRequest(
      search({ redirect_uri: 'http://127.0.0.1:50000/callback' }),
      found,
      options,
    );
    expect(check.kind === 'valid' && check.request.redirectUri).toBe('http://127.0.0.1:50000/callback');
  });
});
