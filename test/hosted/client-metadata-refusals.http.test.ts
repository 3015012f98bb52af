/**
 * A refused Client ID Metadata Document is fetched once, not once per lookup: against a client's
 * own document server on 127.0.0.1, through the real hosted server and through the document source.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrantStore } from '../../src/grant-store/index.js';
import { createClientMetadataDocuments } from '../../src/hosted/client-metadata-documents.js';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import { authorizeUrl, CLIENT_REDIRECT, pkce, startHosted, type Hosted } from '../app/support/hosted-harness.js';

let documents: Server;
let documentBase: string;
const hits = new Map<string, number>();
/** Answers to /held/… requests, sent when the test says. */
const held: ServerResponse[] = [];

/** Remembers a refusal ten minutes: no test on it depends on the time between a fetch and a retry. */
let hosted: Hosted;
/** Forgets a refusal after 2 s, for the one test that waits for that. */
let forgetful: Hosted;
beforeAll(async () => {
  documents = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/held/')) {
      held.push(res);
      return;
    }
    // Names another client than its URL: always refused.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ client_id: `${documentBase}/someone-else.json`, redirect_uris: [CLIENT_REDIRECT] }));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  [hosted, forgetful] = await Promise.all([
    startHosted({ clientMetadataDocuments: { timeoutMs: 5000, refusalCacheSeconds: 600 } }),
    startHosted({ clientMetadataDocuments: { timeoutMs: 5000, refusalCacheSeconds: 2 } }),
  ]);
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await Promise.all([hosted.close(), forgetful.close()]);
  documents.closeAllConnections();
  await new Promise((resolve) => documents.close(resolve));
});

async function authorizeAs(clientId: string, server: Hosted = hosted): Promise<{ status: number; body: string }> {
  const response = await new CookieBrowser().request(authorizeUrl(server.base, { clientId }, pkce().challenge));
  return { status: response.status, body: await response.text() };
}

describe('HOST-45 refused metadata documents', () => {
  it('HOST-45 fetches a refused document once per authorization request, and remembers the refusal in the store', async () => {
    const path = '/refused-once.json';
    const first = await authorizeAs(`${documentBase}${path}`);
    expect(first.status).toBe(400);
    expect(first.body).toContain('another client_id');
    expect(hits.get(path)).toBe(1);
    // Every instance on the store answers a retry from the remembered refusal.
    expect(await hosted.store.read('client-metadata-refusal', `${documentBase}${path}`)).toEqual({
      reason: 'the document names another client_id than its URL',
    });
  });

  it('HOST-45 fetches a refused document again once its refusal has expired', async () => {
    const path = '/refused-then-again.json';
    await authorizeAs(`${documentBase}${path}`, forgetful);
    expect(hits.get(path)).toBe(1);
    // The limit only names the failure: the loop ends at the first fetch after the 2 s.
    const deadline = Date.now() + 60_000;
    while ((hits.get(path) ?? 0) < 2) {
      if (Date.now() > deadline) throw new Error('the refused document was never fetched again');
      expect((await authorizeAs(`${documentBase}${path}`, forgetful)).status).toBe(400);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(hits.get(path)).toBe(2);
  });

  it('HOST-45 lets lookups of one URL at once share one fetch', async () => {
    const path = '/held/shared.json';
    let refusalReads = 0;
    const counting: GrantStore = {
      ...hosted.store,
      read: async (namespace, name) => {
        const value = await hosted.store.read(namespace, name);
        if (namespace === 'client-metadata-refusal') refusalReads += 1;
        return value;
      },
    };
    const source = createClientMetadataDocuments(counting, hosted.server.publicUrl, { timeoutMs: 10_000 });
    const lookups = Array.from({ length: 20 }, () =>
      source.find(`${documentBase}${path}`).then(
        () => 'accepted',
        (error: { error_description?: string }) => error.error_description ?? 'refused',
      ),
    );
    // Every lookup has passed the caches (and joined a fetch, or started one) before the answer is sent.
    while (refusalReads < 20 || held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    for (const res of held.splice(0)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          client_id: `${documentBase}${path}`,
          client_name: 'Shared',
          redirect_uris: [CLIENT_REDIRECT],
        }),
      );
    }
    expect(new Set(await Promise.all(lookups))).toEqual(new Set(['accepted']));
    expect(hits.get(path)).toBe(1);
  });
});
