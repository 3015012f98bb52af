/**
 * Fetches and caches the Client ID Metadata Documents of MCP clients that name themselves by URL.
 * No redirect is followed, the wait is short and the body small and JSON only; an accepted
 * document is kept in the grant store for a while, so that every instance sees the same client, and
 * a refused one for a shorter while, so that it is not fetched again for each lookup.
 * @see SECURITY.md HOST-17, HOST-18, HOST-19, HOST-21, HOST-45
 */
import { errors, type AdapterPayload } from 'oidc-provider';
import {
  isObject,
  isText,
  objectWith,
  readRecord,
  type GrantStore,
  type RecordKind,
  type StoredValue,
} from '../grant-store/index.js';
import { isLoopbackName, mediaTypeOf, readCappedBody, undiciFetch } from '../network/index.js';
import { checkClientIdUrl, checkClientMetadataDocument } from './client-metadata-document.js';
import type { PublicUrl } from './public-url.js';

const DOCUMENTS = 'client-metadata-document';
const REFUSALS = 'client-metadata-refusal';

/**
 * A client's kept document as the store gives it back (ST-17): checked again as when it was
 * fetched, and holding nothing the check leaves out, so what is handed to the engine is still a
 * document fit to be this client's registration. What the check keeps passes it again unchanged.
 */
function documentRecord(clientId: string): RecordKind<StoredValue> {
  return {
    namespace: DOCUMENTS,
    check: (value): value is StoredValue => {
      const checked = checkClientMetadataDocument(clientId, value);
      return checked.ok && isObject(value) && Object.keys(value).every((field) => field in checked.metadata);
    },
  };
}

/** A refused document's reason as the store gives it back (ST-17). */
const REFUSAL_RECORD: RecordKind<{ readonly reason: string }> = {
  namespace: REFUSALS,
  check: objectWith({ reason: isText }),
};

export interface ClientMetadataDocumentOptions {
  /** The whole fetch, connect to last byte; a client's document is a few hundred bytes. */
  readonly timeoutMs?: number;
  /** How long an accepted document is used before it is fetched again. */
  readonly cacheSeconds?: number;
  /**
   * How long a refused document stays refused without being fetched again (HOST-45): long enough
   * that the engine's several lookups of one request, and a client retrying at once, cost one fetch;
   * short enough that a fixed document is taken soon.
   */
  readonly refusalCacheSeconds?: number;
  readonly maxBytes?: number;
}

export interface ClientMetadataDocuments {
  /** The client's metadata for the engine; throws `invalid_client` with the reason when refused. */
  find(clientId: string): Promise<AdapterPayload>;
}

type Fetched = { readonly ok: true; readonly document: unknown } | { readonly ok: false; readonly reason: string };

export function createClientMetadataDocuments(
  store: GrantStore,
  publicUrl: PublicUrl,
  options: ClientMetadataDocumentOptions = {},
): ClientMetadataDocuments {
  const timeoutMs = options.timeoutMs ?? 5000;
  const cacheSeconds = options.cacheSeconds ?? 300;
  const refusalCacheSeconds = options.refusalCacheSeconds ?? 30;
  const maxBytes = options.maxBytes ?? 5 * 1024;
  const publicUrlIsLoopback = isLoopbackName(new URL(publicUrl.base).hostname);
  const get = undiciFetch(
    { connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs },
    { publicAddressesOnly: !publicUrlIsLoopback },
  );
  const refuse = (reason: string): never => {
    throw new errors.InvalidClient(`the client's metadata document was refused: ${reason}`);
  };
  /** The fetches under way in this instance, by URL: lookups of one URL at once share one request. */
  const inFlight = new Map<
    string,
    Promise<
      | { readonly ok: true; readonly metadata: Record<string, unknown> }
      | { readonly ok: false; readonly reason: string }
    >
  >();

  async function download(url: string): Promise<Fetched> {
    let response: Response;
    try {
      response = await get(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const notPublic = (error as { cause?: { code?: unknown } }).cause?.code === 'ENOTPUBLIC';
      return {
        ok: false,
        reason: notPublic ? 'its host resolves to an address that is not public' : 'it could not be fetched in time',
      };
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        reason:
          response.status >= 300 && response.status < 400
            ? 'its URL redirects, and redirects are not followed'
            : `its URL answered ${response.status}`,
      };
    }
    if (mediaTypeOf(response.headers.get('content-type') ?? undefined) !== 'application/json') {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: 'it is not application/json' };
    }
    let body: Awaited<ReturnType<typeof readCappedBody>>;
    try {
      body = await readCappedBody(response, maxBytes);
    } catch {
      return { ok: false, reason: 'it could not be fetched in time' };
    }
    if (body.kind === 'too-large') return { ok: false, reason: `it is larger than ${maxBytes} bytes` };
    try {
      return {
        ok: true,
        document: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)) as unknown,
      };
    } catch {
      return { ok: false, reason: 'it is not JSON' };
    }
  }

  /** Fetches and checks the document, then remembers the verdict, refusals included, in the store. */
  async function fetchAndKeep(clientId: string) {
    const fetched = await download(clientId);
    const checked = fetched.ok ? checkClientMetadataDocument(clientId, fetched.document) : fetched;
    if (checked.ok) await store.write(DOCUMENTS, clientId, checked.metadata, { ttlSeconds: cacheSeconds });
    else await store.write(REFUSALS, clientId, { reason: checked.reason }, { ttlSeconds: refusalCacheSeconds });
    return checked;
  }

  return {
    async find(clientId) {
      const url = checkClientIdUrl(clientId, publicUrlIsLoopback);
      if (!url.ok) return refuse(url.reason);
      const cached = await readRecord(store, documentRecord(clientId), clientId);
      if (cached !== undefined) return cached;
      const refused = await readRecord(store, REFUSAL_RECORD, clientId);
      if (refused !== undefined) return refuse(refused.reason);
      let pending = inFlight.get(clientId);
      if (pending === undefined) {
        pending = fetchAndKeep(clientId);
        inFlight.set(clientId, pending);
        void pending.finally(() => inFlight.delete(clientId)).catch(() => undefined);
      }
      const checked = await pending;
      if (!checked.ok) return refuse(checked.reason);
      return checked.metadata;
    },
  };
}
