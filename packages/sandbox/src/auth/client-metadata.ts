/**
 * Validation of client metadata (RFC 7591 §2), shared by dynamic registration and Client ID
 * Metadata Documents. Pure: the caller turns a refusal into the wire error it names.
 */
import type { GrantType, TokenEndpointAuthMethod } from './client.js';
import { checkRegistrableRedirectUri } from './redirect-uri.js';

export interface ValidClientMetadata {
  clientName: string | undefined;
  applicationType: 'native' | 'web';
  redirectUris: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: GrantType[];
}

export type ClientMetadataCheck =
  | { ok: true; metadata: ValidClientMetadata }
  | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; reason: string };

const MAX_REDIRECT_URIS = 10;
const MAX_NAME_LENGTH = 200;
const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ['none', 'client_secret_post'];
const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token'];

/** Pure: checks a registration request body or a metadata document. */
export function checkClientMetadata(
  body: unknown,
  allowedAuthMethods: readonly TokenEndpointAuthMethod[] = AUTH_METHODS,
): ClientMetadataCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('the client metadata must be a JSON object');
  }
  const fields = body as Record<string, unknown>;

  const name = fields.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH)) {
    return invalid(`client_name must be a non-empty string of at most ${MAX_NAME_LENGTH} characters`);
  }

  const applicationType = fields.application_type ?? 'web';
  if (applicationType !== 'native' && applicationType !== 'web')
    return invalid('application_type must be native or web');

  const redirectUris = fields.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
    return { ok: false, error: 'invalid_redirect_uri', reason: 'redirect_uris must be a non-empty array' };
  }
  if (redirectUris.length > MAX_REDIRECT_URIS)
    return { ok: false, error: 'invalid_redirect_uri', reason: `at most ${MAX_REDIRECT_URIS} redirect_uris` };
  for (const uri of redirectUris) {
    const check = checkRegistrableRedirectUri(uri);
    if (!check.ok) return { ok: false, error: 'invalid_redirect_uri', reason: check.reason };
  }

  // RFC 7591 §2 defaults to client_secret_basic, which this school does not offer; §3.2.1 lets
  // the server replace a value, so an absent method registers a public client and says so.
  const authMethod = fields.token_endpoint_auth_method ?? 'none';
  if (typeof authMethod !== 'string' || !(allowedAuthMethods as readonly string[]).includes(authMethod)) {
    return invalid(`token_endpoint_auth_method must be one of: ${allowedAuthMethods.join(', ')}`);
  }

  // RFC 7591 §2 defaults to authorization_code alone; refresh_token is added because a native
  // client without it would have to send its user through consent every hour.
  const grantTypes = fields.grant_types ?? GRANT_TYPES;
  if (
    !Array.isArray(grantTypes) ||
    grantTypes.length === 0 ||
    !grantTypes.every((type) => (GRANT_TYPES as readonly unknown[]).includes(type))
  ) {
    return invalid(`grant_types may contain only: ${GRANT_TYPES.join(', ')}`);
  }
  if (!grantTypes.includes('authorization_code')) return invalid('grant_types must include authorization_code');

  const responseTypes = fields.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code') {
    return invalid('response_types must be ["code"]');
  }

  return {
    ok: true,
    metadata: {
      clientName: typeof name === 'string' ? name.trim() : undefined,
      applicationType,
      redirectUris: [...new Set(redirectUris as string[])],
      tokenEndpointAuthMethod: authMethod as TokenEndpointAuthMethod,
      grantTypes: [...new Set(grantTypes as GrantType[])],
    },
  };
}

function invalid(reason: string): ClientMetadataCheck {
  return { ok: false, error: 'invalid_client_metadata', reason };
}
