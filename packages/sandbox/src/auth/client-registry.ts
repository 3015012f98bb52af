/**
 * The clients the server knows: registered ones, kept for the server's lifetime, and clients
 * described by a metadata document, cached for a few minutes as the draft permits.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from './client.js';
import type { ValidClientMetadata } from './client-metadata.js';
import {
  checkClientIdUrl,
  fetchClientMetadataDocument,
  parseClientMetadataDocument,
} from './client-metadata-document.js';
import type { AuthSettings } from './options.js';
import { checkIntegrationRedirectUri } from './redirect-uri.js';

/** What the school's staff fill in to register an integration. */
export interface IntegrationRequest {
  readonly clientName: string;
  /** Fixed callbacks: https, or http on 127.0.0.1 for tests and the demo. */
  readonly redirectUris: readonly string[];
}

/** What the school hands the integration's operator, once. */
export interface IntegrationCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** How long a fetched metadata document is trusted before it is fetched again. */
const DOCUMENT_CACHE_SECONDS = 300;

export type ClientLookup = { ok: true; client: Client } | { ok: false; reason: string };

export class ClientRegistry {
  readonly #settings: AuthSettings;
  readonly #registered = new Map<string, Client>();
  readonly #documents = new Map<string, { client: Client; fetchedAt: number }>();

  constructor(settings: AuthSettings) {
    this.#settings = settings;
  }

  register(metadata: ValidClientMetadata): Client {
    const confidential = metadata.tokenEndpointAuthMethod === 'client_secret_post';
    const client: Client = {
      clientId: `sbx_${randomBytes(12).toString('base64url')}`,
      clientSecret: confidential ? `sbxs_${randomBytes(32).toString('base64url')}` : undefined,
      clientName: metadata.clientName,
      applicationType: metadata.applicationType,
      redirectUris: metadata.redirectUris,
      tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
      grantTypes: metadata.grantTypes,
      clientIdIssuedAt: this.#settings.nowSeconds(),
      source: 'registration',
    };
    this.#registered.set(client.clientId, client);
    return client;
  }

  /**
   * Registers a confidential client with fixed callbacks, the way a school's staff would in its
   * admin area: not through open registration, which refuses https callbacks.
   */
  registerIntegration(request: IntegrationRequest): IntegrationCredentials {
    if (request.clientName.trim() === '') throw new RangeError('an integration needs a name');
    if (request.redirectUris.length === 0) throw new RangeError('an integration needs at least one callback');
    for (const uri of request.redirectUris) {
      const check = checkIntegrationRedirectUri(uri);
      if (!check.ok) throw new RangeError(`integration callback ${uri} refused: ${check.reason}`);
    }
    const client: Client = {
      clientId: `sbxi_${randomBytes(12).toString('base64url')}`,
      clientSecret: `sbxs_${randomBytes(32).toString('base64url')}`,
      clientName: request.clientName.trim(),
      applicationType: 'web',
      redirectUris: [...new Set(request.redirectUris)],
      tokenEndpointAuthMethod: 'client_secret_post',
      grantTypes: ['authorization_code', 'refresh_token'],
      clientIdIssuedAt: this.#settings.nowSeconds(),
      source: 'integration',
    };
    this.#registered.set(client.clientId, client);
    return { clientId: client.clientId, clientSecret: client.clientSecret! };
  }

  /** Finds a client by identifier, fetching its metadata document when the identifier is a URL. */
  async resolve(clientId: string): Promise<ClientLookup> {
    const registered = this.#registered.get(clientId);
    if (registered) return { ok: true, client: registered };
    const check = checkClientIdUrl(clientId, { allowInsecure: this.#settings.allowInsecureClientMetadataUrls });
    if (check.kind === 'not-a-url') return { ok: false, reason: 'unknown client_id' };
    if (check.kind === 'refused') return { ok: false, reason: check.reason };

    const now = this.#settings.nowSeconds();
    const cached = this.#documents.get(check.url);
    if (cached && now - cached.fetchedAt < DOCUMENT_CACHE_SECONDS) return { ok: true, client: cached.client };

    let document: unknown;
    try {
      document = await fetchClientMetadataDocument(check.url, {
        timeoutMs: this.#settings.clientMetadataTimeoutMs,
        maxBytes: this.#settings.clientMetadataMaxBytes,
      });
    } catch (error) {
      return {
        ok: false,
        reason: `the client metadata document could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const parsed = parseClientMetadataDocument(check.url, document);
    if (!parsed.ok) return { ok: false, reason: `the client metadata document is invalid: ${parsed.reason}` };
    const client: Client = {
      clientId: check.url,
      clientSecret: undefined,
      clientName: parsed.metadata.clientName,
      applicationType: parsed.metadata.applicationType,
      redirectUris: parsed.metadata.redirectUris,
      tokenEndpointAuthMethod: 'none',
      grantTypes: parsed.metadata.grantTypes,
      clientIdIssuedAt: now,
      source: 'metadata-document',
    };
    this.#documents.set(check.url, { client, fetchedAt: now });
    return { ok: true, client };
  }
}
