/**
 * Who we are to the school: a dynamically registered native public client (RFC 7591, RFC 8252
 * §8.4), a Client ID Metadata Document URL, or a pre-registered client. And the openid-client
 * `Configuration` that speaks for that client.
 */
import * as client from 'openid-client';
import { OAuthError } from './oauth-error.js';
import { toOAuthError } from './protocol-error.js';
import type { FetchLike } from './school-fetch.js';
import type { SchoolMetadata } from './discovery.js';
import type { SchoolTarget } from './school-url.js';
import type { StoredClient } from './store-record.js';

export const CLIENT_NAME = 'school-mcp';

/** RG-01: the registration body. Pure. */
export function registrationMetadata(redirectUri: string, scope: string): Partial<client.ClientMetadata> {
  return {
    client_name: CLIENT_NAME,
    application_type: 'native',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope,
  };
}

/**
 * RG-03: a stored registration is reused when it was made for this redirect URI. Pre-registered
 * clients and metadata documents are the school's business and always "fit".
 */
export function registrationFits(stored: StoredClient, redirectUri: string): boolean {
  return stored.kind !== 'dynamic' || stored.redirectUris.includes(redirectUri);
}

/** RG-02: what the school registered must be what we asked for. Pure. */
export function validateRegistrationResponse(raw: Readonly<Record<string, unknown>>, redirectUri: string, now: number): StoredClient {
  const refuse = (why: string) =>
    new OAuthError('OAUTH_REGISTRATION_FAILED', `The school's registration response was refused: ${why}.`, {
      hint: 'The school registered something this client did not ask for; contact the school.',
    });
  if (typeof raw.client_id !== 'string' || raw.client_id.length === 0) throw refuse('no client_id');
  const uris = raw.redirect_uris;
  if (uris !== undefined && !(Array.isArray(uris) && uris.length === 1 && uris[0] === redirectUri)) throw refuse('redirect_uris differ');
  if (raw.client_secret !== undefined && (typeof raw.client_secret !== 'string' || raw.client_secret.length === 0)) throw refuse('malformed client_secret');
  return {
    kind: 'dynamic',
    clientId: raw.client_id,
    ...(typeof raw.client_secret === 'string' ? { clientSecret: raw.client_secret } : {}),
    redirectUris: [redirectUri],
    registeredAt: now,
  };
}

export interface RegistrationContext {
  target: SchoolTarget;
  metadata: SchoolMetadata;
  fetch: FetchLike;
  now: () => number;
}

export async function registerClient(context: RegistrationContext, redirectUri: string, scope: string): Promise<StoredClient> {
  if (!context.metadata.server.registration_endpoint) {
    throw new OAuthError('OAUTH_REGISTRATION_FAILED', 'The school does not offer dynamic client registration.', {
      hint: 'Configure a pre-registered client id (and secret) for this school.',
    });
  }
  let registered: client.Configuration;
  try {
    registered = await client.dynamicClientRegistration(new URL(context.target.expectedIssuer), registrationMetadata(redirectUri, scope), client.None(), {
      algorithm: 'oauth2',
      [client.customFetch]: context.fetch as client.CustomFetch,
      ...(context.target.insecureLoopback ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    throw toOAuthError(error, 'registration');
  }
  return validateRegistrationResponse(registered.clientMetadata() as Record<string, unknown>, redirectUri, context.now());
}

/** The openid-client configuration for one client of this school. */
export function clientConfiguration(context: Omit<RegistrationContext, 'now'>, stored: StoredClient): client.Configuration {
  const auth = stored.clientSecret ? client.ClientSecretPost(stored.clientSecret) : client.None();
  const config = new client.Configuration(context.metadata.server, stored.clientId, stored.clientSecret ? { client_secret: stored.clientSecret } : undefined, auth);
  config[client.customFetch] = context.fetch as client.CustomFetch;
  if (context.target.insecureLoopback) client.allowInsecureRequests(config);
  return config;
}

/** A Client ID Metadata Document is used only when the school says it accepts one. */
export function metadataDocumentClient(metadata: SchoolMetadata, url: string | undefined, now: number): StoredClient | undefined {
  if (!url || (metadata.server as Record<string, unknown>).client_id_metadata_document_supported !== true) return undefined;
  return { kind: 'metadata-document', clientId: url, redirectUris: [], registeredAt: now };
}
