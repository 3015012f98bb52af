import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentCoding, documentFetch, headerValue, type DocumentBody } from '../../src/network/document-fetch.js';
import { readCappedBody } from '../../src/network/index.js';

describe('documentFetch, pure parts', () => {
  it('gives a header as Headers.get does, repeated values joined', () => {
    expect(headerValue({ etag: '"v1"' }, 'ETag')).toBe('"v1"');
    expect(headerValue({ 'x-many': ['a', 'b'] }, 'x-many')).toBe('a, b');
    expect(headerValue({}, 'etag')).toBeNull();
  });

  it('decodes gzip, deflate and br, passes identity, and leaves an unknown coding as it came', () => {
    expect(contentCoding(null)).toBe('identity');
    expect(contentCoding(' GZIP ')).toBe('gzip');
    expect(contentCoding('x-gzip')).toBe('gzip');
    expect(contentCoding('br')).toBe('br');
    expect(contentCoding('deflate')).toBe('deflate');
    expect(contentCoding('zstd')).toBeUndefined();
  });
});

describe('documentFetch over a real socket', () => {
  let server: Server;
  let base: string;
  const seen: IncomingMessage[] = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/openapi.json': (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end('{"openapi":"3.1.0"}');
    },
    '/moved': (_req, res) => void res.writeHead(302, { location: '/openapi.json' }).end(),
    '/compressed': (_req, res) =>
      void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"openapi":"3.0.3"}')),
    // 8 MiB of spaces compress to a few kilobytes.
    '/bomb': (_req, res) =>
      void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 32))),
    '/silent': () => undefined,
    '/trickle': (_req, res) => {
      res.writeHead(200);
      res.write('{"openapi":');
    },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      routes[req.url ?? '']?.(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
  });

  const text = async (body: DocumentBody | null) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body ?? []) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  };

  it('answers with the status, the headers and the body, and asks for a compressed body', async () => {
    const answer = await documentFetch(`${base}/openapi.json`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ETag')).toBe('"v1"');
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await text(answer.body)).toBe('{"openapi":"3.1.0"}');
    const request = seen.at(-1)!;
    expect(request.headers['accept']).toBe('application/json');
    expect(request.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('sends the validators it is given and hands back a 304', async () => {
    const answer = await documentFetch(`${base}/openapi.json`, { method: 'GET', headers: { 'if-none-match': '"v1"' } });
    expect(answer.status).toBe(304);
  });

  it('API-08 hands a redirect back with its Location instead of following it', async () => {
    const before = seen.length;
    const answer = await documentFetch(`${base}/moved`, { method: 'GET', redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/openapi.json');
    await answer.body?.cancel();
    expect(seen.slice(before).map((request) => request.url)).toEqual(['/moved']);
  });

  it('decompresses a gzip body', async () => {
    const answer = await documentFetch(`${base}/compressed`, { method: 'GET' });
    expect(await text(answer.body)).toBe('{"openapi":"3.0.3"}');
  });

  it('NET-03 counts decompressed bytes against the cap, so a small compressed body cannot inflate past it', async () => {
    const answer = await documentFetch(`${base}/bomb`, { method: 'GET' });
    expect(await readCappedBody(answer, 5 * 1024 * 1024)).toEqual({ kind: 'too-large' });
  });

  it('gives up when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = documentFetch(`${base}/silent`, { method: 'GET', signal: controller.signal });
    await expect.poll(() => seen.some((request) => request.url === '/silent')).toBe(true);
    controller.abort(new DOMException('the document took too long', 'TimeoutError'));
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it("ends a body being read when its signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const answer = await documentFetch(`${base}/trickle`, { method: 'GET', signal: controller.signal });
    const chunks = answer.body![Symbol.asyncIterator]();
    await chunks.next();
    controller.abort(new DOMException('the document took too long', 'TimeoutError'));
    await expect(chunks.next()).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('documentFetch over TLS', () => {
  it('NET-06 checks the certificate of an https school: a self-signed one is refused before anything is read', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'school-mcp-tls-'));
    try {
      const files = { key: join(directory, 'key.pem'), cert: join(directory, 'cert.pem') };
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-days',
        '1',
        '-keyout',
        files.key,
        '-out',
        files.cert,
      ]);
      let served = 0;
      const server = createTlsServer(
        { key: await readFile(files.key), cert: await readFile(files.cert) },
        (_req, res) => {
          served += 1;
          res.end('{}');
        },
      );
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
        await expect(documentFetch(url, { method: 'GET' })).rejects.toMatchObject({
          code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
        });
        expect(served).toBe(0);
      } finally {
        server.close();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
