/**
 * How much of a body the bridge reads, per kind of exchange, and the one way a `fetch` response
 * is read under a cap. The cap counts bytes after decompression, as `fetch` hands them over, so
 * a small compressed body cannot inflate past it.
 * @see SECURITY.md NET-03, MD-04, API-08, HTTP-06
 */

import type { DocumentResponse } from './document-fetch.js';

export const BODY_CAPS = {
  /** OAuth metadata, registration, token, revocation, introspection and userinfo answers are small. */
  oauthResponse: 1024 * 1024,
  /** The OpenAPI document, from the network or a file (API-08). */
  openapiDocument: 5 * 1024 * 1024,
  /** An API answer that the agent receives (NET-03). */
  apiResponse: 10 * 1024 * 1024,
  /** An API error body is only ever shown as an excerpt. */
  apiErrorBody: 64 * 1024,
  /** One request to the `--http` endpoint: far above any tool call's arguments (HTTP-06). */
  mcpRequest: 1024 * 1024,
  /**
   * One request to hosted mode's authorization server (registration, token, revocation): the
   * engine's own body parser stops at 56 KiB, so a declared length is refused at the same size.
   */
  oauthRequest: 56 * 1024,
  /** One form post of hosted mode's consent and step-up pages: a token and a decision. */
  consentForm: 8 * 1024,
} as const;

/** Pure: a declared `Content-Length` over the cap, so the body is refused before it is read. */
export function declaredOverCap(contentLength: string | null | undefined, maxBytes: number): boolean {
  if (contentLength === null || contentLength === undefined || !/^\d+$/.test(contentLength.trim())) return false;
  return Number(contentLength) > maxBytes;
}

export type CappedBody =
  | { readonly kind: 'read'; readonly bytes: Uint8Array<ArrayBuffer> }
  | { readonly kind: 'too-large' };

/**
 * The whole body, or `too-large` (the rest is given up) once it passes `maxBytes`. Read by async
 * iteration, which a WHATWG stream and the document client's Node stream both offer; leaving the
 * loop early cancels the stream.
 */
export async function readCappedBody(
  response: Pick<DocumentResponse, 'headers' | 'body'>,
  maxBytes: number,
): Promise<CappedBody> {
  if (declaredOverCap(response.headers.get('content-length'), maxBytes)) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: 'too-large' };
  }
  if (!response.body) return { kind: 'read', bytes: new Uint8Array(new ArrayBuffer(0)) };
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) return { kind: 'too-large' };
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'read', bytes };
}
