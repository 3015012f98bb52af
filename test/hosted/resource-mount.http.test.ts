/**
 * The resource, mount and redirect rules over real HTTP: a hosted school-mcp whose public URL has
 * a path, against the sandbox school, signing people in through clients that spell the resource
 * as real clients do and listen on whatever loopback port is free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_UPS } from '../../src/hosted/step-up-record.js';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  allowAtSchoolMcp,
  authorizeUrl,
  callMcp,
  CLIENT_REDIRECT,
  exchange,
  openConsent,
  pkce,
  registerMcpClient,
  startHosted,
  type Hosted,
  type McpClient,
} from '../app/support/hosted-harness.js';

let hosted: Hosted;
let origin: string;
beforeAll(async () => {
  hosted = await startHosted({ publicPath: '/mcp-gw' });
  origin = new URL(hosted.base).origin;
});
afterAll(async () => {
  await hosted.close();
});

const [ada, grace] = [SANDBOX_STAFF[0]!, SANDBOX_STAFF[1]!];

async function json(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Both consents for `client`, with these authorization parameters; returns the browser's last stop and what it saw on the way. */
async function signInWith(client: McpClient, user: string, overrides: Record<string, string>) {
  const browser = new CookieBrowser();
  const { verifier, challenge } = pkce();
  const { consentUrl, html, csrf } = await openConsent(
    browser,
    authorizeUrl(hosted.base, client, challenge, overrides),
  );
  const schoolAuthorize = await allowAtSchoolMcp(browser, consentUrl, csrf);
  const callback = await completeConsent(schoolAuthorize, 'allow', { user });
  const redirect = overrides.redirect_uri ?? CLIENT_REDIRECT;
  const { url } = await browser.follow(callback, (next) => !next.href.startsWith(redirect));
  return { url, verifier, consentUrl, html };
}

describe('hosted mode under a public URL with a path', () => {
  it('HOST-28 publishes its metadata at the well-known URLs of the path, with endpoints under the path', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server/mcp-gw',
      '/mcp-gw/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp-gw',
    ]) {
      const { status, body } = await json(`${origin}${path}`);
      expect(status, path).toBe(200);
      expect(body).toMatchObject({
        issuer: hosted.base,
        authorization_endpoint: `${hosted.base}/oauth/authorize`,
        token_endpoint: `${hosted.base}/oauth/token`,
        registration_endpoint: `${hosted.base}/oauth/register`,
        revocation_endpoint: `${hosted.base}/oauth/revoke`,
        jwks_uri: `${hosted.base}/oauth/jwks`,
      });
    }
    const challenge = (await callMcp(hosted.base, undefined)).headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${origin}/.well-known/oauth-protected-resource/mcp-gw/mcp`);
    expect((await json(metadataUrl!)).body).toMatchObject({
      resource: `${hosted.base}/mcp`,
      authorization_servers: [hosted.base],
    });
    expect((await json(`${origin}/.well-known/oauth-protected-resource/mcp-gw`)).body).toMatchObject({
      resource: hosted.base,
    });
  });

  it('HOST-28 answers nothing outside the path but the well-known documents', async () => {
    for (const path of ['/oauth/register', '/mcp', '/mcp-gwx/mcp', '/.well-known/oauth-authorization-server']) {
      const response = await fetch(`${origin}${path}`, { method: path.endsWith('register') ? 'POST' : 'GET' });
      expect(response.status, path).toBe(404);
    }
  });

  it('HOST-28 HOST-27 signs a person in under the path, with every page, form, redirect and cookie there, for a client that names the resource with a trailing slash', async () => {
    const client = await registerMcpClient(hosted.base);
    const { url, verifier, consentUrl, html } = await signInWith(client, ada.sub, { resource: `${hosted.base}/` });
    expect(consentUrl.pathname).toMatch(/^\/mcp-gw\/consent\/[\w-]+$/);
    expect(html).toContain(`action="${consentUrl.pathname}"`);
    const code = url.searchParams.get('code');
    expect(code, url.href).not.toBeNull();
    const tokens = await exchange(hosted.base, client, code!, verifier, { resource: `${hosted.base}/` });
    expect(tokens.status).toBe(200);
    const answer = await callMcp(hosted.base, String(tokens.body.access_token));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sub: ada.sub });
  });

  it('HOST-28 scopes the sign-in cookies to the path', async () => {
    const client = await registerMcpClient(hosted.base);
    const { challenge } = pkce();
    const authorize = await fetch(authorizeUrl(hosted.base, client, challenge), { redirect: 'manual' });
    expect(new URL(authorize.headers.get('location')!, hosted.base).pathname).toMatch(/^\/mcp-gw\/consent\//);
    const paths = authorize.headers.getSetCookie().map((cookie) => /;\s*path=([^;]+)/i.exec(cookie)?.[1]);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/mcp-gw\//);
  });

  it('HOST-28 serves a step-up page under the path, whose form posts there', async () => {
    await hosted.store.write(
      STEP_UPS,
      'mounted-step-up',
      { sub: ada.sub, scopes: ['account:read', 'courses:read'], missing: ['courses:read'] },
      { ttlSeconds: 60 },
    );
    const page = await fetch(`${hosted.base}/step-up/mounted-step-up`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/mcp-gw/step-up/mounted-step-up"');
  });

  it.each([
    ['the MCP endpoint', (base: string) => `${base}/mcp`],
    [
      'an upper-case scheme and a trailing slash',
      (base: string) => `${base.replace('http://127.0.0.1', 'HTTP://127.0.0.1')}/mcp/`,
    ],
  ])('HOST-27 accepts %s as the resource and binds the token to the public URL', async (_label, resourceOf) => {
    const client = await registerMcpClient(hosted.base);
    const resource = resourceOf(hosted.base);
    const { url, verifier } = await signInWith(client, grace.sub, { resource });
    const tokens = await exchange(hosted.base, client, url.searchParams.get('code')!, verifier, { resource });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect((await callMcp(hosted.base, String(tokens.body.access_token))).status).toBe(200);
  });

  it.each([
    ['the host root', (base: string) => `${new URL(base).origin}/`],
    ['a sibling of the path', (base: string) => `${base}x`],
    ['another endpoint', (base: string) => `${base}/oauth/token`],
  ])('HOST-27 refuses %s as the resource with invalid_target', async (_label, resourceOf) => {
    const client = await registerMcpClient(hosted.base);
    const response = await fetch(
      authorizeUrl(hosted.base, client, pkce().challenge, { resource: resourceOf(hosted.base) }),
      { redirect: 'manual' },
    );
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('hosted mode: loopback redirect URIs', () => {
  it('HOST-29 sends the code to a registered loopback redirect URI on another port than registered (RFC 8252 §7.3)', async () => {
    const client = await registerMcpClient(hosted.base);
    const redirect = 'http://127.0.0.1:51999/callback';
    const { url, verifier } = await signInWith(client, ada.sub, { redirect_uri: redirect });
    expect(url.href.startsWith(redirect)).toBe(true);
    const code = url.searchParams.get('code')!;
    expect((await exchange(hosted.base, client, code, verifier, { redirect_uri: redirect })).status).toBe(200);
  });

  it('HOST-29 refuses a loopback redirect URI with another path, with an error page and no redirect', async () => {
    const client = await registerMcpClient(hosted.base);
    const response = await fetch(
      authorizeUrl(hosted.base, client, pkce().challenge, { redirect_uri: 'http://127.0.0.1:51999/elsewhere' }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('HOST-29 refuses a registration with the true reason', async () => {
    const response = await fetch(`${hosted.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://agent.example/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.error).toBe('invalid_redirect_uri');
    expect(body.error_description).toContain('https, or http on a loopback address');
  });
});
