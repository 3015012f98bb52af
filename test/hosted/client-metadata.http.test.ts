import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientMetadataDocuments } from '../../src/hosted/client-metadata-documents.js';
import { parsePublicUrl } from '../../src/hosted/index.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  authorizeUrl,
  CLIENT_REDIRECT,
  exchange,
  openConsent,
  pkce,
  signIn,
  startHosted,
  tokenRequest,
  type Hosted,
} from '../app/support/hosted-harness.js';

/** A client's own web server, serving its metadata documents (good and bad) on 127.0.0.1. */
let documents: Server;
let documentBase: string;
const hits = new Map<string, number>();
/** Requests to /slow wait here until the file ends: the server's timeout must give up first. */
const held: (() => void)[] = [];

function documentFor(path: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: `${documentBase}${path}`, client_name: 'Doc Agent', redirect_uris: [CLIENT_REDIRECT], ...extra };
}

let hosted: Hosted;
/** Gives a document half a second: only the slow document, which is never answered, is fetched there. */
let impatient: Hosted;
beforeAll(async () => {
  documents = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (body: unknown, type = 'application/json') => {
      res.writeHead(200, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (path === '/good.json' || path === '/cached.json') return json(documentFor(path));
    if (path === '/other-id.json') return json(documentFor(path, { client_id: `${documentBase}/good.json` }));
    if (path === '/custom-scheme.json') return json(documentFor(path, { redirect_uris: ['myapp://callback'] }));
    if (path === '/confidential.json')
      return json(documentFor(path, { token_endpoint_auth_method: 'client_secret_basic' }));
    if (path === '/big.json')
      return json(documentFor(path, { client_uri: `https://agent.example/${'a'.repeat(6 * 1024)}` }));
    if (path === '/text.json') return json(documentFor(path), 'text/html');
    if (path === '/not-json.json') return json('{"client_id": ');
    if (path === '/redirect.json') {
      res.writeHead(302, { location: '/good.json' });
      return res.end();
    }
    if (path === '/slow.json') {
      held.push(() => res.end());
      return undefined;
    }
    res.writeHead(404);
    return res.end();
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  // Far longer than a loaded machine takes to serve a document from 127.0.0.1: a refusal is
  // remembered (HOST-45), so a good document refused once would fail every later test of it.
  [hosted, impatient] = await Promise.all([
    startHosted({ tools: true, clientMetadataDocuments: { timeoutMs: 30_000 } }),
    startHosted({ clientMetadataDocuments: { timeoutMs: 500 } }),
  ]);
});
afterAll(async () => {
  for (const release of held) release();
  await Promise.all([hosted.close(), impatient.close()]);
  documents.closeAllConnections();
  await new Promise((resolve) => documents.close(resolve));
});

const ada = SANDBOX_STAFF[0]!;

/** The authorization endpoint's answer to a request of this client, before any consent. */
async function authorizeAs(clientId: string, overrides: Record<string, string> = {}, server: Hosted = hosted) {
  const response = await new CookieBrowser().request(
    authorizeUrl(server.base, { clientId }, pkce().challenge, overrides),
  );
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text };
}

describe('hosted mode: clients named by a metadata document', () => {
  it('advertises Client ID Metadata Documents in its RFC 8414 metadata', async () => {
    const server = (await (await fetch(`${hosted.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(server.client_id_metadata_document_supported).toBe(true);
  });

  it('HOST-20 signs in a client named by its metadata document URL, shows its name and host at consent, and lets it call a tool', async () => {
    const clientId = `${documentBase}/good.json`;
    const browser = new CookieBrowser();
    const { html } = await openConsent(browser, authorizeUrl(hosted.base, { clientId }, pkce().challenge));
    expect(html).toContain('<span id="client-name">Doc Agent</span>');
    expect(html).toContain(`<strong id="client-id-host">${new URL(documentBase).host}</strong>`);

    const { code, verifier } = await signIn(hosted, { clientId }, ada.sub);
    const tokens = await exchange(hosted.base, { clientId }, code, verifier);
    expect(tokens.status).toBe(200);
    const client = new Client({ name: 'cimd-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${hosted.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } },
      }),
    );
    const result = (await client.callTool({ name: 'who_am_i', arguments: {} })) as {
      content: { text?: string }[];
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.content.map((item) => item.text ?? '').join('\n')).toContain(ada.name);
    await client.close();

    const refreshed = await tokenRequest(hosted.base, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
  });

  it('keeps an accepted document in the grant store for a while, so it is not fetched on every request', async () => {
    const clientId = `${documentBase}/cached.json`;
    expect((await authorizeAs(clientId)).status).toBe(303);
    expect((await authorizeAs(clientId)).status).toBe(303);
    expect(hits.get('/cached.json')).toBe(1);
    expect(await hosted.store.read('client-metadata-document', clientId)).toMatchObject({
      client_id: clientId,
      client_name: 'Doc Agent',
    });
  });

  it.each([
    ['names another client_id', '/other-id.json', 'another client_id'],
    ['asks for a confidential auth method', '/confidential.json', 'public client'],
  ])('HOST-18 refuses a document that %s, with an error page and no redirect', async (_label, path, reason) => {
    const answer = await authorizeAs(`${documentBase}${path}`);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_client' });
    expect(JSON.parse(answer.body).error_description).toContain(reason);
  });

  it('HOST-18 applies the registration rules to a document: a custom-scheme redirect URI is refused without a redirect', async () => {
    const answer = await authorizeAs(`${documentBase}/custom-scheme.json`, { redirect_uri: 'myapp://callback' });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('HOST-18 refuses a redirect_uri the document does not list, without redirecting to it', async () => {
    const answer = await authorizeAs(`${documentBase}/good.json`, {
      redirect_uri: 'https://attacker.example/callback',
    });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('HOST-18 refuses a token request of a client whose document is refused', async () => {
    const refused = await tokenRequest(hosted.base, {
      grant_type: 'authorization_code',
      code: 'x',
      code_verifier: pkce().verifier,
      redirect_uri: CLIENT_REDIRECT,
      client_id: `${documentBase}/other-id.json`,
    });
    expect(refused.body.error).toBe('invalid_client');
  });

  it.each([
    ['too big', '/big.json', 'larger than 5120 bytes'],
    ['not JSON', '/not-json.json', 'not JSON'],
    ['served as another media type', '/text.json', 'not application/json'],
    ['behind a redirect', '/redirect.json', 'redirects are not followed'],
  ])('HOST-19 refuses a document %s', async (_label, path, reason) => {
    const answer = await authorizeAs(`${documentBase}${path}`);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(JSON.parse(answer.body).error_description).toContain(reason);
  });

  it('HOST-19 refuses a document too slow', async () => {
    const answer = await authorizeAs(`${documentBase}/slow.json`, {}, impatient);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(JSON.parse(answer.body).error_description).toContain('could not be fetched in time');
  });

  it('HOST-17 refuses a plain http URL client_id on a public https deployment, without fetching it', async () => {
    const publicUrl = parsePublicUrl('https://mcp.school.example');
    if (!publicUrl.ok) throw new Error(publicUrl.reason);
    const source = createClientMetadataDocuments(hosted.store, publicUrl.url, { timeoutMs: 500 });
    const before = hits.get('/good-elsewhere.json') ?? 0;
    await expect(source.find(`${documentBase}/good-elsewhere.json`)).rejects.toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('must be https'),
    });
    expect(hits.get('/good-elsewhere.json') ?? 0).toBe(before);
  });

  it('HOST-21 on a public deployment, does not connect to a name that resolves to a private address', async () => {
    const publicUrl = parsePublicUrl('https://mcp.school.example');
    if (!publicUrl.ok) throw new Error(publicUrl.reason);
    const source = createClientMetadataDocuments(hosted.store, publicUrl.url, { timeoutMs: 2000 });
    const port = new URL(documentBase).port;
    const before = hits.get('/good.json') ?? 0;
    await expect(source.find(`https://localhost:${port}/good.json`)).rejects.toMatchObject({
      error_description: expect.stringContaining('not public'),
    });
    expect(hits.get('/good.json') ?? 0).toBe(before);
  });
});
