/** Loading `{school}/openapi.json` over real HTTP on 127.0.0.1, with the ETag cache. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFileName } from '../../src/openapi/document-cache.js';
import type { FetchLike } from '../../src/network/index.js';
import { loadDocument } from '../../src/openapi/index.js';
import { documentTarget } from '../../src/openapi/load-document.js';

const DOCUMENT = JSON.stringify({ openapi: '3.1.0', info: { title: 'School', version: '1' }, paths: {} });
const fetchFn = undiciFetch as unknown as FetchLike;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server | undefined;
let configDirectory: string;
let requests: IncomingMessage[] = [];

async function startSchool(handler: Handler): Promise<string> {
  server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stopSchool(): Promise<void> {
  const running = server;
  server = undefined;
  if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
}

const servesDocument: Handler = (request, response) => {
  if (request.headers['if-none-match'] === '"v1"') {
    response.writeHead(304, { etag: '"v1"' }).end();
    return;
  }
  response
    .writeHead(200, {
      'content-type': 'application/json',
      etag: '"v1"',
      'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT',
    })
    .end(DOCUMENT);
};

beforeEach(async () => {
  requests = [];
  configDirectory = await mkdtemp(join(tmpdir(), 'openapi-cache-'));
});

afterEach(async () => {
  await stopSchool();
  await rm(configDirectory, { recursive: true, force: true });
});

describe('loadDocument over HTTP', () => {
  it('fetches {school}/openapi.json without a token and caches it with its validators', async () => {
    const school = await startSchool(servesDocument);
    const loaded = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    expect(loaded).toMatchObject({ source: 'network', location: `${school}/openapi.json`, warnings: [] });
    expect(loaded.document['openapi']).toBe('3.1.0');
    expect(requests[0]?.url).toBe('/openapi.json');
    expect(requests[0]?.headers['authorization']).toBeUndefined();
    expect(await readdir(join(configDirectory, 'openapi-cache'))).toHaveLength(1);
  });

  it('revalidates with If-None-Match and If-Modified-Since on restart and uses the cache on 304', async () => {
    const school = await startSchool(servesDocument);
    await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    const again = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    expect(again.source).toBe('revalidated');
    expect(again.document['openapi']).toBe('3.1.0');
    expect(requests[1]?.headers['if-none-match']).toBe('"v1"');
    expect(requests[1]?.headers['if-modified-since']).toBe('Tue, 01 Jul 2025 10:00:00 GMT');
  });

  it('falls back to the cached copy, saying so, when the school is down', async () => {
    const school = await startSchool(servesDocument);
    await loadDocument({
      schoolUrl: school,
      fetch: fetchFn,
      configDirectory,
      now: () => new Date('2025-07-01T10:00:00Z'),
    });
    await stopSchool();
    const fallback = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    expect(fallback.source).toBe('cache-fallback');
    expect(fallback.warnings[0]).toMatch(/could not be reached .*cached at 2025-07-01T10:00:00.000Z/);
  });

  it('falls back to the cached copy when the school answers 503', async () => {
    let down = false;
    const school = await startSchool((request, response) =>
      down ? response.writeHead(503).end('busy') : servesDocument(request, response),
    );
    await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    down = true;
    const fallback = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    expect(fallback.source).toBe('cache-fallback');
    expect(fallback.warnings[0]).toContain('HTTP 503');
  });

  it('fails clearly when the school is down and nothing is cached', async () => {
    const school = await startSchool(servesDocument);
    await stopSchool();
    await expect(loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory })).rejects.toMatchObject({
      code: 'OPENAPI_FETCH_FAILED',
      message: expect.stringContaining('no cached copy'),
    });
  });

  it('API-08 follows no redirect', async () => {
    const school = await startSchool((_request, response) =>
      response.writeHead(302, { location: 'https://evil.example/openapi.json' }).end(),
    );
    await expect(loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory })).rejects.toMatchObject({
      code: 'OPENAPI_REDIRECT',
    });
    expect(requests).toHaveLength(1);
  });

  it('API-08 refuses an HTML page and a body over 5 MiB', async () => {
    let mode: 'html' | 'huge' = 'html';
    const school = await startSchool((_request, response) => {
      if (mode === 'html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
      else {
        // Chunked, so no Content-Length tells in advance: the cap applies while reading.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`{"openapi":"3.1.0","x":"`);
        response.end(`${'a'.repeat(6 * 1024 * 1024)}"}`);
      }
    });
    await expect(loadDocument({ schoolUrl: school, fetch: fetchFn })).rejects.toMatchObject({
      code: 'OPENAPI_CONTENT_TYPE',
    });
    mode = 'huge';
    await expect(loadDocument({ schoolUrl: school, fetch: fetchFn })).rejects.toMatchObject({
      code: 'OPENAPI_TOO_LARGE',
    });
  });

  it('reads YAML served as application/yaml and reports a 404 with what to do', async () => {
    const school = await startSchool((request, response) => {
      if (request.url === '/api.yaml')
        response
          .writeHead(200, { 'content-type': 'application/yaml' })
          .end('openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n');
      else response.writeHead(404).end();
    });
    const loaded = await loadDocument({ schoolUrl: school, openapi: `${school}/api.yaml`, fetch: fetchFn });
    expect(loaded.document['openapi']).toBe('3.0.3');
    await expect(loadDocument({ schoolUrl: school, fetch: fetchFn })).rejects.toMatchObject({
      code: 'OPENAPI_HTTP_STATUS',
      hint: expect.stringContaining('--openapi'),
    });
  });
});

describe('loadDocument from a file and the choice of source', () => {
  it('reads --openapi FILE without touching the network', async () => {
    const path = join(configDirectory, 'school.json');
    await writeFile(path, DOCUMENT);
    const failingFetch: FetchLike = () => Promise.reject(new Error('no network in this test'));
    const loaded = await loadDocument({ schoolUrl: 'https://school.example', openapi: path, fetch: failingFetch });
    expect(loaded).toMatchObject({ source: 'file', location: path });
  });

  it('API-08 fetches a document URL only from the school origin', () => {
    expect(documentTarget('https://school.example/', undefined)).toEqual({
      kind: 'url',
      url: 'https://school.example/openapi.json',
    });
    expect(() => documentTarget('https://school.example', 'https://evil.example/openapi.json')).toThrow(
      expect.objectContaining({ code: 'OPENAPI_FOREIGN_ORIGIN' }),
    );
    expect(documentTarget('https://school.example', './spec.yaml')).toMatchObject({ kind: 'file' });
  });
});

describe('ST-07 the document cache is kept like the token store', () => {
  const PLANTED = JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Planted', version: '1' },
    paths: { '/planted': { get: { operationId: 'planted_tool' } } },
  });

  async function plant(directory: string, url: string, mode: number): Promise<string> {
    const cache = join(directory, 'openapi-cache');
    await mkdir(cache, { recursive: true });
    await chmod(directory, 0o777);
    await chmod(cache, 0o777);
    const entry = join(cache, cacheFileName(url));
    await writeFile(
      entry,
      JSON.stringify({ url, etag: '"planted"', storedAt: '2025-01-01T00:00:00Z', body: PLANTED }),
      { mode },
    );
    await chmod(entry, mode);
    return entry;
  }

  it('ST-07 a symlinked config directory is neither read nor written through', async () => {
    const school = await startSchool(servesDocument);
    const elsewhere = join(configDirectory, 'elsewhere');
    await mkdir(elsewhere, { mode: 0o700 });
    const linked = join(configDirectory, 'linked');
    await symlink(elsewhere, linked);
    const loaded = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory: linked });
    expect(loaded.source).toBe('network');
    expect(loaded.warnings.join('\n')).toMatch(/not cached: .*not a plain directory/);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('ST-07 an entry planted in a world-writable directory is ignored and the directories are tightened', async () => {
    const school = await startSchool(servesDocument);
    await plant(configDirectory, `${school}/openapi.json`, 0o666);
    await stopSchool();
    const error = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'OPENAPI_FETCH_FAILED', message: expect.stringContaining('no cached copy') });
    expect((await lstat(configDirectory)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(configDirectory, 'openapi-cache'))).mode & 0o777).toBe(0o700);
  });

  it.runIf(process.getuid?.() === 0)(
    'ST-07 an entry that belongs to another user is ignored, even with mode 0600',
    async () => {
      const school = await startSchool(servesDocument);
      const entry = await plant(configDirectory, `${school}/openapi.json`, 0o600);
      await chown(entry, 65534, 65534);
      const loaded = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
      expect(loaded.source).toBe('network');
      expect(loaded.document['info']).toMatchObject({ title: 'School' });
      expect(requests[0]?.headers['if-none-match']).toBeUndefined();
      expect(loaded.warnings.join('\n')).toMatch(/did not write it \(foreign owner\)/);
    },
  );

  it('ST-07 an entry that is a symbolic link is neither read nor replaced through the link', async () => {
    const school = await startSchool(servesDocument);
    const outside = join(configDirectory, 'outside.json');
    await writeFile(outside, JSON.stringify({ url: `${school}/openapi.json`, storedAt: 'x', body: PLANTED }));
    const cache = join(configDirectory, 'openapi-cache');
    await mkdir(cache, { mode: 0o700 });
    await symlink(outside, join(cache, cacheFileName(`${school}/openapi.json`)));
    const loaded = await loadDocument({ schoolUrl: school, fetch: fetchFn, configDirectory });
    expect(loaded.source).toBe('network');
    expect(loaded.warnings.join('\n')).toMatch(/did not write it \(symlink\)/);
    expect(loaded.warnings.join('\n')).toMatch(/could not be cached/);
    expect(JSON.parse(await readFile(outside, 'utf8')).body).toBe(PLANTED);
  });
});
