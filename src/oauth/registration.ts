/**
 * Who we are to the school: a dynamically registered native public client (RFC 7591, RFC 8252
 * §8.4), a Client ID Metadata Document URL, or a pre-registered client. And the openid-client
 * `Configuration` that speaks for that client.
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import { OAuthError } from './oauth-error.js';
import { readRegistrationAnswer, registrationRefusal, type RegistrationAnswer } from './registration-answer.js';
import type { FetchLike } from '../network/index.js';
import type { SchoolMetadata } from './discovery.js';
import type { SchoolTarget } from './school-url.js';
import type { StoredClient } from './store-record.js';

const CLIENT_NAME = 'school-mcp';

/** The registration fields the school's contract names; a fallback body carries only these. */
export const CONTRACT_REGISTRATION_FIELDS = [
  'client_name',
  'application_type',
  'redirect_uris',
  'token_endpoint_auth_method',
] as const;

export type RegistrationBody = Record<(typeof CONTRACT_REGISTRATION_FIELDS)[number], unknown> & Record<string, unknown>;

/** RG-01: the contract's four fields for a native public client (RFC 8252 §8.4). Pure. */
export function contractRegistrationMetadata(redirectUri: string): RegistrationBody {
  return {
    client_name: CLIENT_NAME,
    application_type: 'native',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
  };
}

/**
 * RG-01: the body sent first: the contract's fields plus what refresh needs. No `scope` (RFC 7591
 * §2 makes it optional, and a server that checks it against its own list refuses the whole
 * registration) and no `response_types` (its default is `code`, what we use). Pure.
 */
export function registrationMetadata(redirectUri: string): RegistrationBody {
  return {
    ...contractRegistrationMetadata(redirectUri),
    // RFC 7591 §2: without grant_types the client is registered for authorization_code alone, and
    // a server that follows it refuses every refresh, sending the user back to consent.
    grant_types: ['authorization_code', 'refresh_token'],
  };
}

/** RFC 7591 §3.2.2: the server refused a metadata value; the contract's fields alone may pass. */
const METADATA_REFUSALS = new Set(['invalid_client_metadata', 'invalid_request']);

/**
 * RG-03: a stored registration is reused when it was made for this redirect URI. Pre-registered
 * clients and metadata documents are the school's business and always "fit".
 */
export function registrationFits(stored: StoredClient, redirectUri: string): boolean {
  return stored.kind !== 'dynamic' || stored.redirectUris.includes(redirectUri);
}

/** RG-02: what the school registered must be what we asked for. Pure. */
export function validateRegistrationResponse(
  raw: Readonly<Record<string, unknown>>,
  redirectUri: string,
  now: number,
): StoredClient {
  const refuse = (why: string) =>
    new OAuthError('OAUTH_REGISTRATION_FAILED', `The school's registration response was refused: ${why}.`, {
      hint: 'The school registered something this client did not ask for; contact the school.',
    });
  if (typeof raw.client_id !== 'string' || raw.client_id.length === 0) throw refuse('no client_id');
  const uris = raw.redirect_uris;
  if (uris !== undefined && !(Array.isArray(uris) && uris.length === 1 && uris[0] === redirectUri))
    throw refuse('redirect_uris differ');
  if (raw.client_secret !== undefined && (typeof raw.client_secret !== 'string' || raw.client_secret.length === 0))
    throw refuse('malformed client_secret');
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
  logger: Logger;
  now: () => number;
}

/**
 * RG-01, MD-08: registers at the registration endpoint of the metadata already validated
 * (never a second discovery), and when the school refuses the metadata, once more with the
 * contract's fields alone.
 */
export async function registerClient(context: RegistrationContext, redirectUri: string): Promise<StoredClient> {
  const endpoint = context.metadata.server.registration_endpoint;
  if (!endpoint) {
    throw new OAuthError('OAUTH_REGISTRATION_FAILED', 'The school does not offer dynamic client registration.', {
      hint: 'Configure a pre-registered client id (and secret) for this school.',
    });
  }
  let answer = await postRegistration(endpoint, registrationMetadata(redirectUri), context.fetch);
  if (answer.kind === 'refused' && METADATA_REFUSALS.has(answer.error)) {
    context.logger.debug('the school refused the registration metadata; retrying with the contract fields only', {
      error: answer.error,
      status: answer.status,
    });
    answer = await postRegistration(endpoint, contractRegistrationMetadata(redirectUri), context.fetch);
  }
  if (answer.kind === 'refused') throw registrationRefusal(answer);
  return validateRegistrationResponse(answer.metadata, redirectUri, context.now());
}

async function postRegistration(
  endpoint: string,
  body: RegistrationBody,
  fetch: FetchLike,
): Promise<RegistrationAnswer> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return readRegistrationAnswer(response.status, response.headers.get('content-type') ?? '', await response.text());
}

/** The openid-client configuration for one client of this school. */
export async function clientConfiguration(
  context: Omit<RegistrationContext, 'now' | 'logger'>,
  stored: StoredClient,
): Promise<client.Configuration> {
  const oidc = await loadOpenIdClient();
  const auth = stored.clientSecret ? oidc.ClientSecretPost(stored.clientSecret) : oidc.None();
  const config = new oidc.Configuration(
    context.metadata.server,
    stored.clientId,
    stored.clientSecret ? { client_secret: stored.clientSecret } : undefined,
    auth,
  );
  config[oidc.customFetch] = context.fetch as client.CustomFetch;
  if (context.target.insecureLoopback) oidc.allowInsecureRequests(config);
  return config;
}

/** A Client ID Metadata Document is used only when the school says it accepts one. */
export function metadataDocumentClient(
  metadata: SchoolMetadata,
  url: string | undefined,
  now: number,
): StoredClient | undefined {
  if (!url || (metadata.server as Record<string, unknown>).client_id_metadata_document_supported !== true)
    return undefined;
  return { kind: 'metadata-document', clientId: url, redirectUris: [], registeredAt: now };
}
