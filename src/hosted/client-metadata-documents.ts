/**
 * Fetches and caches the Client ID Metadata Documents of MCP clients that name themselves by URL.
 * No redirect is followed, the wait is short and the body small and JSON only; an accepted
 * document is kept in the grant store for a while, so that every instance sees the same client.
 * @see SECURITY.md HOST-17, HOST-18, HOST-19, HOST-21
 */
import { errors, type AdapterPayload } from 'oidc-provider';
import type { GrantStore } from '../grant-store/index.js';
import { isLoopbackName, readCappedBody, undiciFetch } from '../network/index.js';
import { checkClientIdUrl, checkClientMetadataDocument } from './client-metadata-document.js';
import type { PublicUrl } from './public-url.js';

const DOCUMENTS = 'client-metadata-document';

export interface ClientMetadataDocumentOptions {
  /** The whole fetch, connect to last byte; a client's document is a few hundred bytes. */
  readonly timeoutMs?: number;
  /** How long an accepted document is used before it is fetched again. */
  readonly cacheSeconds?: number;
  readonly maxBytes?: number;
}

export interface ClientMetadataDocuments {
  /** The client's metadata for the engine; throws `invalid_client` with the reason when refused. */
  find(clientId: string): Promise<AdapterPayload>;
}

export function createClientMetadataDocuments(store: GrantStore, publicUrl: PublicUrl, options: ClientMetadataDocumentOptions = {}): ClientMetadataDocuments {
  const timeoutMs = options.timeoutMs ?? 5000;
  const cacheSeconds = options.cacheSeconds ?? 300;
  const maxBytes = options.maxBytes ?? 5 * 1024;
  const publicUrlIsLoopback = isLoopbackName(new URL(publicUrl.base).hostname);
  const get = undiciFetch({ connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs }, { publicAddressesOnly: !publicUrlIsLoopback });
  const refuse = (reason: string): never => {
    throw new errors.InvalidClient(`the client's metadata document was refused: ${reason}`);
  };

  async function download(url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await get(url, { method: 'GET', headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const notPublic = (error as { cause?: { code?: unknown } }).cause?.code === 'ENOTPUBLIC';
      return refuse(notPublic ? 'its host resolves to an address that is not public' : 'it could not be fetched in time');
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return refuse(response.status >= 300 && response.status < 400 ? 'its URL redirects, and redirects are not followed' : `its URL answered ${response.status}`);
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      await response.body?.cancel().catch(() => undefined);
      return refuse('it is not application/json');
    }
    let body: Awaited<ReturnType<typeof readCappedBody>>;
    try {
      body = await readCappedBody(response, maxBytes);
    } catch {
      return refuse('it could not be fetched in time');
    }
    if (body.kind === 'too-large') return refuse(`it is larger than ${maxBytes} bytes`);
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)) as unknown;
    } catch {
      return refuse('it is not JSON');
    }
  }

  return {
    async find(clientId) {
      const url = checkClientIdUrl(clientId, publicUrlIsLoopback);
      if (!url.ok) return refuse(url.reason);
      const cached = await store.read(DOCUMENTS, clientId);
      if (cached !== undefined) return cached as AdapterPayload;
      const checked = checkClientMetadataDocument(clientId, await download(clientId));
      if (!checked.ok) return refuse(checked.reason);
      await store.write(DOCUMENTS, clientId, checked.metadata, { ttlSeconds: cacheSeconds });
      return checked.metadata as AdapterPayload;
    },
  };
}
