/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose
 * `client_id` is an https URL publishes its metadata there, and the server fetches it instead of
 * requiring registration. The fetch is bounded in time and size and follows no redirects.
 */
import { checkClientMetadata, type ValidClientMetadata } from './client-metadata.js';

export type ClientIdUrlCheck =
  | { kind: 'not-a-url' }
  | { kind: 'url'; url: string }
  | { kind: 'refused'; reason: string };

/** Pure: whether a `client_id` names a metadata document, and whether that URL is acceptable. */
export function checkClientIdUrl(clientId: string, options: { allowInsecure: boolean }): ClientIdUrlCheck {
  if (!/^https?:\/\//i.test(clientId)) return { kind: 'not-a-url' };
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return { kind: 'refused', reason: 'client_id is not a valid URL' };
  }
  const insecureLoopback = options.allowInsecure && url.protocol === 'http:' && url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !insecureLoopback)
    return { kind: 'refused', reason: 'a client_id URL must use https' };
  // The draft: a path is required; no fragment, no credentials, no dot segments.
  if (url.pathname === '/' || url.hash !== '' || clientId.includes('#'))
    return { kind: 'refused', reason: 'a client_id URL needs a path and no fragment' };
  if (url.username !== '' || url.password !== '')
    return { kind: 'refused', reason: 'a client_id URL must not carry credentials' };
  if (url.href !== clientId) return { kind: 'refused', reason: 'a client_id URL must be in canonical form' };
  return { kind: 'url', url: clientId };
}

export type MetadataDocumentParse = { ok: true; metadata: ValidClientMetadata } | { ok: false; reason: string };

/** Pure: validates a fetched document against the URL it came from. */
export function parseClientMetadataDocument(url: string, document: unknown): MetadataDocumentParse {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return { ok: false, reason: 'the document is not a JSON object' };
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) return { ok: false, reason: "the document's client_id does not equal its URL" };
  // A document is public; a shared secret in it would be no secret (the draft forbids it).
  if ('client_secret' in fields || 'client_secret_expires_at' in fields)
    return { ok: false, reason: 'the document must not contain a client_secret' };
  const check = checkClientMetadata(fields, ['none']);
  if (!check.ok) return { ok: false, reason: check.reason };
  return { ok: true, metadata: check.metadata };
}

/** Fetches the document with a time and size limit; a redirect or a non-JSON answer is a failure. */
export async function fetchClientMetadataDocument(
  url: string,
  limits: { timeoutMs: number; maxBytes: number },
): Promise<unknown> {
  const response = await fetch(url, {
    redirect: 'error',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(limits.timeoutMs),
  });
  if (response.status !== 200) throw new Error(`the client metadata document answered ${response.status}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(contentType))
    throw new Error('the client metadata document is not JSON');
  const text = await readCapped(response, limits.maxBytes);
  return JSON.parse(text) as unknown;
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`the client metadata document exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
