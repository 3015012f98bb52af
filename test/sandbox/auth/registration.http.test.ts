import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import {
  LOOPBACK_REDIRECT,
  authorizationParams,
  authorizationUrl,
  authorizeRedirect,
  exchangeCode,
  pkcePair,
  postJson,
} from './oauth-flow.js';

let sandbox: RunningSandbox | undefined;
let documentHost: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  documentHost?.closeAllConnections();
  await new Promise((resolve) => (documentHost ? documentHost.close(resolve) : resolve(undefined)));
  documentHost = undefined;
});

describe('dynamic client registration (RFC 7591) over HTTP', () => {
  it('registers a public loopback client and echoes its metadata with 201', async () => {
    sandbox = await startSandbox();
    const answer = await postJson(`${sandbox.url}/api/oauth/register`, {
      client_name: 'Claude Desktop',
      application_type: 'native',
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({
      client_name: 'Claude Desktop',
      application_type: 'native',
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(answer.body.client_id).toMatch(/^sbx_/);
    expect(answer.body).not.toHaveProperty('client_secret');
  });

  it('issues a secret to a confidential client_secret_post client', async () => {
    sandbox = await startSandbox();
    const answer = await postJson(`${sandbox.url}/api/oauth/register`, {
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.client_secret).toEqual(expect.stringMatching(/^sbxs_.{40,}/));
    expect(answer.body.client_secret_expires_at).toBe(0);
  });

  it.each([
    ['a fixed https callback', 'https://app.example.com/oauth/callback'],
    ['localhost', 'http://localhost:8765/callback'],
    ['another host', 'http://evil.example/callback'],
    ['a fragment', 'http://127.0.0.1:8765/callback#x'],
    ['a malformed URI', 'http://127.0.0.1:8765:1/callback'],
    ['a javascript: URI', 'javascript:alert(document.cookie)'],
    ['a data: URI', 'data:text/html,<script>1</script>'],
  ])('PLAT-02 refuses %s at registration with 400 invalid_redirect_uri', async (_label, uri) => {
    sandbox ??= await startSandbox();
    const answer = await postJson(`${sandbox.url}/api/oauth/register`, { redirect_uris: [LOOPBACK_REDIRECT, uri] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_redirect_uri');
    expect(answer.body.error_description).toEqual(expect.any(String));
  });

  it('refuses a body that is not JSON', async () => {
    sandbox = await startSandbox();
    const form = await fetch(`${sandbox.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `redirect_uris=${encodeURIComponent(LOOPBACK_REDIRECT)}`,
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({ error: 'invalid_request' });
    const broken = await fetch(`${sandbox.url}/api/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"redirect_uris":',
    });
    expect(await broken.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('refuses an authentication method the school does not offer', async () => {
    sandbox = await startSandbox();
    const answer = await postJson(`${sandbox.url}/api/oauth/register`, {
      redirect_uris: [LOOPBACK_REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });
});

describe('client ID metadata documents over HTTP', () => {
  async function hostDocument(
    answer: (url: string) => { status?: number; type?: string; body: string } | 'hang',
  ): Promise<string> {
    let url = '';
    documentHost = createServer((_req, res) => {
      const reply = answer(url);
      if (reply === 'hang') return;
      res.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'application/json' }).end(reply.body);
    });
    await new Promise<void>((resolve) => documentHost!.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(documentHost.address() as AddressInfo).port}/agent/client.json`;
    return url;
  }

  const validDocument = (url: string) => ({
    body: JSON.stringify({ client_id: url, client_name: 'Metadata Agent', redirect_uris: [LOOPBACK_REDIRECT] }),
  });

  it('uses a fetched document as the client, through code exchange', async () => {
    const clientId = await hostDocument(validDocument);
    sandbox = await startSandbox({ autoApprove: true, allowInsecureClientMetadataUrls: true });
    const pkce = pkcePair();
    const callback = await authorizeRedirect(authorizationUrl(sandbox.url, authorizationParams(clientId, pkce)));
    const code = callback.searchParams.get('code');
    expect(code).not.toBeNull();
    const tokens = await exchangeCode(sandbox.url, {
      client: { clientId, clientSecret: undefined },
      pkce,
      code: code!,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.access_token).toEqual(expect.any(String));
  });

  it('shows the error page for an http document URL unless tests allow it', async () => {
    const clientId = await hostDocument(validDocument);
    sandbox = await startSandbox({ autoApprove: true });
    const response = await fetch(authorizationUrl(sandbox.url, authorizationParams(clientId, pkcePair())), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('https');
  });

  it.each([
    [
      'names another client_id',
      (url: string) => ({ body: JSON.stringify({ client_id: `${url}x`, redirect_uris: [LOOPBACK_REDIRECT] }) }),
      'client_id',
    ],
    [
      'is larger than the size limit',
      (url: string) => ({
        body: JSON.stringify({ client_id: url, redirect_uris: [LOOPBACK_REDIRECT], pad: 'x'.repeat(10_000) }),
      }),
      'exceeds',
    ],
    [
      'registers an https callback',
      (url: string) => ({ body: JSON.stringify({ client_id: url, redirect_uris: ['https://agent.example/cb'] }) }),
      'integration',
    ],
    ['is not JSON', () => ({ type: 'text/html', body: '<html></html>' }), 'not JSON'],
    ['answers 404', () => ({ status: 404, body: '{}' }), '404'],
    ['never answers within the time limit', () => 'hang' as const, 'could not be fetched'],
  ])('never redirects when the document %s', async (_label, answer, reason) => {
    const clientId = await hostDocument(answer);
    sandbox = await startSandbox({
      autoApprove: true,
      allowInsecureClientMetadataUrls: true,
      clientMetadataTimeoutMs: 300,
    });
    const response = await fetch(authorizationUrl(sandbox.url, authorizationParams(clientId, pkcePair())), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(reason);
  });
});
