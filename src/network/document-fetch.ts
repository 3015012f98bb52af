/**
 * The GET of the OpenAPI document, over Node's own `http` and `https` clients. Node's global
 * `fetch` would do, but its first use loads the undici bundled inside Node, about 30 ms of CPU on a
 * 2-core machine: a tenth of a start, spent again by every start, since a start that has the
 * document cached still revalidates it. The answer keeps the part of a `fetch` response that the
 * document loader reads (status, headers, a body read chunk by chunk), so any `fetch` can stand in
 * for it.
 *
 * Like the `fetch` it replaces, it never follows a redirect (API-08: a 3xx is handed back
 * with its `Location`), asks for a compressed body and decompresses it, so the loader's cap counts
 * decompressed bytes (NET-03), and ends the exchange when the signal aborts.
 * @see SECURITY.md API-08, NET-03
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FetchInit } from './fetch-like.js';

/**
 * A body read chunk by chunk, or given up. A WHATWG `ReadableStream` is one; the answers here are
 * Node streams, which spare loading Node's web streams at start.
 */
export interface DocumentBody extends AsyncIterable<Uint8Array> {
  cancel(): Promise<void>;
}

/** What the document loader reads of an answer; a WHATWG `Response` has it too. */
export interface DocumentResponse {
  readonly status: number;
  /** `opaqueredirect` when a WHATWG `fetch` with `redirect: 'manual'` met a redirect. */
  readonly type?: string;
  readonly headers: { get(name: string): string | null };
  readonly body: DocumentBody | null;
}

export type DocumentFetch = (url: string, init: FetchInit) => Promise<DocumentResponse>;

const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/** Pure: a header as `Headers.get` gives it, repeated values joined by a comma (RFC 9110 §5.3). */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Pure: the one content coding this client decodes, `identity` for none, undefined for any other. */
export function contentCoding(header: string | null): 'gzip' | 'deflate' | 'br' | 'identity' | undefined {
  const coding = (header ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return 'identity';
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  return undefined;
}

export const documentFetch: DocumentFetch = async (url, init) => {
  const target = new URL(url);
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const { signal } = init;
  signal?.throwIfAborted();
  const outgoing = request(target, {
    method: init.method ?? 'GET',
    headers: { 'accept-encoding': ACCEPTED_ENCODINGS, ...init.headers },
  });
  // As with `fetch`, an abort ends the exchange with the signal's reason, before or during the body.
  let answer: IncomingMessage | undefined;
  const abort = () => (answer ?? outgoing).destroy(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  answer = await new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  }).catch((error: unknown) => {
    signal?.removeEventListener('abort', abort);
    throw error;
  });
  answer.once('close', () => signal?.removeEventListener('abort', abort));
  const headers = { get: (name: string) => headerValue(answer.headers, name) };
  return { status: answer.statusCode ?? 0, headers, body: await decodedBody(answer, headers.get('content-encoding')) };
};

async function decodedBody(answer: IncomingMessage, encoding: string | null): Promise<DocumentBody> {
  const coding = contentCoding(encoding);
  const stream = await decoded(answer, coding);
  return {
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>,
    cancel: async () => void stream.destroy(),
  };
}

async function decoded(answer: IncomingMessage, coding: ReturnType<typeof contentCoding>): Promise<Readable> {
  // A coding this client does not know is handed over as it came, as `fetch` does.
  if (coding === 'identity' || coding === undefined) return answer;
  const zlib = await import('node:zlib');
  const decoder =
    coding === 'gzip'
      ? zlib.createGunzip()
      : coding === 'deflate'
        ? zlib.createInflate()
        : zlib.createBrotliDecompress();
  answer.once('error', (error) => decoder.destroy(error));
  // A body given up (cancelled, or past its cap) ends the exchange, not only the decoding.
  decoder.once('close', () => answer.destroy());
  return answer.pipe(decoder);
}
