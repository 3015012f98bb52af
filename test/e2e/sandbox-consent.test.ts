/**
 * The sandbox's consent page in a real headless Chromium: the user reads who asks for what,
 * clicks Allow or Deny, and the browser lands on the client's 127.0.0.1 listener.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { describeInBrowser, launchBrowser } from '../helpers/browser.js';
import {
  authorizationParams,
  authorizationUrl,
  exchangeCode,
  pkcePair,
  registerClient,
} from '../sandbox/auth/oauth-flow.js';

let browser: Browser;
let sandbox: RunningSandbox | undefined;
const listeners: Server[] = [];

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  for (const listener of listeners.splice(0)) {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  }
});

/** The client's one-shot loopback listener: resolves with the first callback it receives. */
async function listenForCallback(): Promise<{ redirectUri: string; callback: Promise<URL> }> {
  let resolveCallback!: (url: URL) => void;
  const callback = new Promise<URL>((resolve) => (resolveCallback = resolve));
  const listener = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Done</title><p id="done">You can close this tab.</p>');
    resolveCallback(url);
  });
  listeners.push(listener);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return { redirectUri: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`, callback };
}

async function setUp(scope: string) {
  sandbox = await startSandbox();
  // Registered without a port: the listener's port is chosen at request time (RFC 8252 §7.3).
  const client = await registerClient(sandbox.url, {
    client_name: 'Claude Desktop',
    redirect_uris: ['http://127.0.0.1/callback'],
  });
  const { redirectUri, callback } = await listenForCallback();
  const pkce = pkcePair();
  const url = authorizationUrl(
    sandbox.url,
    authorizationParams(client.clientId, pkce, { redirect_uri: redirectUri, scope, state: 'browser-state' }),
  );
  return { base: sandbox.url, client, pkce, redirectUri, callback, url };
}

describeInBrowser('consent page in a real browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('PLAT-09 names the client, the user and the redirect host, lists scopes in words, and Allow returns a working code', async () => {
    const { base, client, pkce, redirectUri, callback, url } = await setUp('openid profile courses:read orders:read');
    const page = await browser.newPage();
    try {
      await page.goto(url.href);
      expect(await page.textContent('#client-name')).toBe('Claude Desktop');
      expect(await page.textContent('#user-name')).toBe('Ada Lovelace');
      expect(await page.textContent('#redirect-host')).toBe(new URL(redirectUri).host);
      const scopes = await page.locator('li[data-scope]').allTextContents();
      expect(scopes).toHaveLength(4);
      expect(scopes.join('\n')).toContain('Read access to orders');
      expect(scopes.join('\n')).toContain('Basic profile information');

      await page.getByRole('button', { name: 'Allow' }).click();
      const landed = await callback;
      await page.waitForSelector('#done');
      expect(page.url().startsWith(redirectUri)).toBe(true);
      expect(landed.searchParams.get('state')).toBe('browser-state');
      expect(landed.searchParams.get('iss')).toBe(base);

      const tokens = await exchangeCode(
        base,
        { client, pkce, code: landed.searchParams.get('code')! },
        { redirect_uri: redirectUri },
      );
      expect(tokens.status).toBe(200);
      expect(tokens.body.scope).toBe('openid profile courses:read orders:read');
    } finally {
      await page.close();
    }
  });

  it('Deny lands on the client with error=access_denied and no code', async () => {
    const { base, callback, url } = await setUp('courses:write');
    const page = await browser.newPage();
    try {
      await page.goto(url.href);
      await page.getByRole('button', { name: 'Deny' }).click();
      const landed = await callback;
      expect(landed.searchParams.get('error')).toBe('access_denied');
      expect(landed.searchParams.get('state')).toBe('browser-state');
      expect(landed.searchParams.get('iss')).toBe(base);
      expect(landed.searchParams.has('code')).toBe(false);
      expect(sandbox!.countRequests('/api/oauth/token')).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('marks scopes granted before when the client asks for more', async () => {
    const first = await setUp('openid courses:read');
    const page = await browser.newPage();
    try {
      await page.goto(first.url.href);
      await page.getByRole('button', { name: 'Allow' }).click();
      await first.callback;

      const second = await listenForCallback();
      const more = authorizationUrl(
        first.base,
        authorizationParams(first.client.clientId, pkcePair(), {
          redirect_uri: second.redirectUri,
          scope: 'openid courses:read courses:write',
        }),
      );
      await page.goto(more.href);
      expect(await page.locator('li[data-granted="true"]').count()).toBe(2);
      expect(await page.locator('li[data-scope="courses:write"]').getAttribute('data-granted')).toBeNull();
    } finally {
      await page.close();
    }
  });
});
