/**
 * The contract's three protection rows on every operation of every scope group, over real HTTP:
 * no token is served as anonymous (never 401, never a challenge); a bad token is 401
 * `invalid_token`; a token without the scope is 403 `insufficient_scope` naming every scope needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_FAMILIES, SCOPE_GROUPS, type ApiRoute } from '../../../packages/sandbox/src/api/index.js';
import { SchoolClient } from './school-client.js';

let api: SchoolClient;
let scopelessToken: string;
let resourceMetadata: string;

beforeAll(async () => {
  api = await SchoolClient.start();
  scopelessToken = await api.token(['openid']);
  resourceMetadata = `${api.sandbox.url}/.well-known/oauth-protected-resource`;
});
afterAll(() => api.close());

const routes = ROUTE_FAMILIES.flatMap((family) => family.routes);

/** A concrete path for a route, with each parameter's documented example. */
function examplePath(route: ApiRoute): string {
  return route.path
    .replace('/api/v1', '')
    .replace(/:([A-Za-z_]+)/g, (_, name: string) => String(route.params?.[name]?.examples?.[0]));
}

function call(route: ApiRoute, token?: string) {
  const body = route.body?.contentType === 'multipart/form-data' ? undefined : route.body ? {} : undefined;
  return api.call(route.method, examplePath(route), {
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
  });
}

describe('every scope group has operations, each declaring its scopes', () => {
  it.each(SCOPE_GROUPS)('%s', (group) => {
    const own = routes.filter((route) => route.group === group);
    expect(own.length).toBeGreaterThan(0);
    for (const route of own) expect(route.scopes.some((scope) => scope.startsWith(`${group}:`))).toBe(true);
  });
});

describe.each(routes.map((route) => [`${route.group} ${route.operationId}`, route] as const))(
  '%s',
  (_name, route) => {
    it('serves a token-less call as anonymous: no 401, no challenge', async () => {
      const answer = await call(route);
      expect(answer.status).not.toBe(401);
      expect(answer.headers.get('www-authenticate')).toBeNull();
      if (route.anonymous === 'private' && route.method === 'GET' && route.list) {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ items: [], total: 0, has_next_page: false });
      } else if (route.anonymous === 'private' && route.method === 'GET' && route.params !== undefined) {
        expect(answer.status).toBe(404);
      } else if (route.anonymous === 'private') {
        expect(answer.status).toBe(403);
        expect(answer.body.error).toBe('sign_in_required');
      } else {
        expect([200, 404]).toContain(answer.status);
      }
    });

    it('ERR-02 answers an unknown token with 401 invalid_token and resource_metadata', async () => {
      const answer = await call(route, 'not-a-real-token');
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_token');
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="invalid_token"/);
      expect(challenge).toContain(`resource_metadata="${resourceMetadata}"`);
    });

    it('ERR-03 answers a token without the scope with 403 insufficient_scope naming every needed scope', async () => {
      const answer = await call(route, scopelessToken);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: 'insufficient_scope', scope: route.scopes.join(' ') });
      const challenge = answer.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
      expect(challenge).toContain(`scope="${route.scopes.join(' ')}"`);
      expect(challenge).toContain(`resource_metadata="${resourceMetadata}"`);
    });
  },
  60_000,
);

describe('tokens that stop being valid', () => {
  it('ERR-02 a revoked token gets 401 invalid_token on the next call', async () => {
    const { obtainSandboxTokens: obtainTokens } = await import('@school-mcp/sandbox');
    const tokens = await obtainTokens(api.sandbox.url, ['courses:read']);
    expect((await api.get('/courses', { token: tokens.accessToken })).status).toBe(200);
    const revoke = await fetch(`${api.sandbox.url}/api/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.accessToken, client_id: tokens.clientId }),
    });
    expect(revoke.status).toBe(200);
    const after = await api.get('/courses', { token: tokens.accessToken });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a malformed Authorization header is 401 invalid_token, not anonymous', async () => {
    const response = await fetch(`${api.sandbox.url}/api/v1/courses`, {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
