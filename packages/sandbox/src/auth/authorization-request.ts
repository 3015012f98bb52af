/**
 * Validation of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2). Pure.
 * The order matters: until the client and its redirect URI are established nothing may be sent
 * to the redirect URI (RFC 6749 §4.1.2.1), so those failures are shown as a page instead.
 */
import type { Scope } from '../scopes.js';
import type { Client } from './client.js';
import type { ClientLookup } from './client-registry.js';
import type { OAuthErrorCode } from './oauth-error.js';
import { collectParameters } from './parameters.js';
import { checkCodeChallenge } from './pkce.js';
import { matchRedirectUri } from './redirect-uri.js';
import { checkResourceIndicator } from './resource-indicator.js';
import { parseScope } from './scope.js';

export interface AuthorizationRequest {
  readonly client: Client;
  /** The redirect URI exactly as requested (its port may differ from the registered one). */
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly state: string | undefined;
  readonly codeChallenge: string;
  readonly resource: string | undefined;
  readonly nonce: string | undefined;
}

export type AuthorizationRequestCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  | { kind: 'error-page'; reason: string }
  | {
      kind: 'redirect-error';
      redirectUri: string;
      state: string | undefined;
      error: OAuthErrorCode;
      description: string;
    };

export function checkAuthorizationRequest(
  search: URLSearchParams,
  client: ClientLookup,
  options: { exactRedirectPort: boolean; resource: string },
): AuthorizationRequestCheck {
  const clientIds = search.getAll('client_id');
  if (clientIds.length !== 1 || clientIds[0] === '')
    return { kind: 'error-page', reason: 'the request needs exactly one client_id' };
  if (!client.ok) return { kind: 'error-page', reason: client.reason };

  const redirectUris = search.getAll('redirect_uri');
  if (redirectUris.length !== 1 || redirectUris[0] === '')
    return { kind: 'error-page', reason: 'the request needs exactly one redirect_uri' };
  const redirectUri = redirectUris[0]!;
  // A registered integration's callback is fixed: its port is part of it (RFC 8252 §7.3 is for native apps).
  const exactPort = options.exactRedirectPort || client.client.source === 'integration';
  if (!matchRedirectUri(client.client.redirectUris, redirectUri, { exactPort })) {
    return { kind: 'error-page', reason: 'redirect_uri is not registered for this client' };
  }

  const state = search.get('state') ?? undefined;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationRequestCheck => ({
    kind: 'redirect-error',
    redirectUri,
    state,
    error,
    description,
  });

  const collected = collectParameters(search);
  if ('duplicate' in collected)
    return fail('invalid_request', `parameter ${collected.duplicate} must not be sent more than once`);
  const params = collected.params;

  const responseType = params.get('response_type');
  if (responseType === undefined) return fail('invalid_request', 'missing parameter response_type');
  if (responseType !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');
  if (params.has('request') || params.has('request_uri'))
    return fail('invalid_request', 'request objects are not supported');

  const pkce = checkCodeChallenge(params.get('code_challenge'), params.get('code_challenge_method'));
  if (!pkce.ok) return fail('invalid_request', pkce.reason);

  const scope = parseScope(params.get('scope'));
  if (!scope.ok) return fail('invalid_scope', scope.reason);

  const resource = checkResourceIndicator(params.get('resource'), options.resource);
  if (!resource.ok) return fail('invalid_target', resource.reason);

  return {
    kind: 'valid',
    request: {
      client: client.client,
      redirectUri,
      scopes: scope.scopes,
      state,
      codeChallenge: pkce.challenge,
      resource: resource.resource,
      nonce: params.get('nonce') || undefined,
    },
  };
}
