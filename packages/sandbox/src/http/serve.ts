/**
 * Serves a fetch-style handler over `node:http` on 127.0.0.1. Request bodies are capped so that a
 * test (or a curious user) cannot make the sandbox buffer without bound.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FetchHandler = (request: Request) => Promise<Response>;

export interface ListeningServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Binds first (port 0 picks a free port), then asks `makeHandler` for the handler with the final
 * URL, because the sandbox's issuer and every URL it publishes contain the port.
 */
export async function listen(
  makeHandler: (url: string) => FetchHandler,
  options: { host?: string; port?: number } = {},
): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  let handler: FetchHandler | undefined;
  const server = createServer((req, res) => {
    void dispatch(req, res, handler!, host);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  // Clients (undici) drop an idle connection ahead of the timeout the server announces. With Node's
  // 5 s, a client whose event loop was busy past it would send on a connection the server had just
  // closed and read ECONNRESET; a long one leaves the closing to the client.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  handler = makeHandler(url);
  return { url, port, close: () => closeServer(server) };
}

async function dispatch(req: IncomingMessage, res: ServerResponse, handler: FetchHandler, host: string): Promise<void> {
  try {
    const body = await readBody(req);
    if (body === 'too-large') {
      res
        .writeHead(413, { 'content-type': 'application/json' })
        .end('{"error":"invalid_request","error_description":"request body too large"}');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const origin = `http://${req.headers.host ?? host}`;
    const request = new Request(new URL(req.url ?? '/', origin), {
      method: req.method ?? 'GET',
      headers,
      body: body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? new Uint8Array(body) : undefined,
    });
    const response = await handler(request);
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie') return;
      outHeaders[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) outHeaders['set-cookie'] = cookies;
    res.writeHead(response.status, outHeaders);
    if (req.method === 'HEAD' || response.body === null) {
      res.end();
      return;
    }
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'server_error', error_description: 'the sandbox failed to answer' }));
    process.stderr.write(`sandbox: unhandled error: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
