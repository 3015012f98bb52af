/**
 * What an anonymous party can make the hosted server do through its open endpoints, against the
 * real server on 127.0.0.1: the logout redirect, forwarded headers, cacheable metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerMcpClient, startHosted, type Hosted } from '../app/support/hosted-harness.js';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
});
afterAll(async () => {
  await hosted.close();
});

async function register(metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${hosted.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: ['http://127.0.0.1:47011/callback'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('HOST-40 no logout redirect', () => {
  it.each([
    ['plain http on a name', 'http://evil.example/after-logout'],
    ['a custom scheme', 'javascript:alert(1)'],
    ['a fragment', 'https://chat.example/bye#x'],
  ])(
    'HOST-40 refuses to register a post-logout redirect URI with %s, under the redirect URI rule',
    async (_label, uri) => {
      const answer = await register({ post_logout_redirect_uris: [uri] });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_client_metadata');
      expect(String(answer.body.error_description)).toContain('post_logout_redirect_uris');
    },
  );

  it('HOST-40 offers no logout endpoint: it is not in the metadata, and /oauth/logout redirects nowhere', async () => {
    const client = await registerMcpClient(hosted.base, {
      post_logout_redirect_uris: ['https://evil.example/after-logout'],
    });
    const metadata = (await (await fetch(`${hosted.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).not.toHaveProperty('end_session_endpoint');
    const logout = new URL(`${hosted.base}/oauth/logout`);
    logout.searchParams.set('client_id', client.clientId);
    logout.searchParams.set('post_logout_redirect_uri', 'https://evil.example/after-logout');
    for (const method of ['GET', 'POST']) {
      const answer = await fetch(logout, { method, redirect: 'manual' });
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.status).toBe(404);
    }
  });
});
