/**
 * A real `node:http` server on 127.0.0.1:0 that records every request (method, URL, headers,
 * body) and every connection closed by the client, with a per-test handler.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

type Handler = (request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => void | Promise<void>;

export interface RecordingServer {
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Resolves when the client side of the `index`-th request's connection goes away. */
  connectionClosed(index: number): Promise<void>;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const closed: Promise<void>[] = [];
  let handler: Handler = (_request, response) => {
    response.end();
  };

  const server = createServer((request, response) => {
    closed.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve(handler(request, response, recorded)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connectionClosed: (index) => closed[index] ?? Promise.reject(new Error(`no request #${index}`)),
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
