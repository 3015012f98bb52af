/**
 * HTTP exchanges with the endpoint exactly as a hostile page or a sloppy client would send them:
 * any Host, any headers, and, over a bare socket, requests no HTTP library would write.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface Exchange {
  readonly method?: string;
  readonly path?: string;
  /** Sent as given; `host` defaults to `127.0.0.1:<port>`. */
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
}

export function exchange(
  port: number,
  { method = 'POST', path = '/mcp', headers = {}, body }: Exchange,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes `text` on a fresh socket and returns the status line and headers of the answer. */
export function rawExchange(port: number, text: string): Promise<{ statusLine: string; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const head = received.split('\r\n\r\n')[0] ?? '';
      resolve({ statusLine: head.split('\r\n')[0] ?? '', head });
    });
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

export interface OpenSocket {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  readonly received: () => string;
  /** Settles when the server (or the test) closed the connection. */
  readonly closed: Promise<void>;
}

/**
 * A socket that has connected, for tests that write byte by byte or hold a connection open;
 * it is pushed on `opened`, which the test destroys after each case.
 */
export async function openSocket(port: number, opened: Socket[]): Promise<OpenSocket> {
  const socket = connect(port, '127.0.0.1');
  opened.push(socket);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** Headers a JSON-RPC POST needs to get past the transport's own checks. */
export function jsonRpcHeaders(secret: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
    ...extra,
  };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
