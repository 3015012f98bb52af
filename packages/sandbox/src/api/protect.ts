/**
 * The bearer rules of the contract, in one place:
 * - no `Authorization` header: the caller is anonymous and is served, never challenged;
 * - a header that is not a live bearer token (unknown, expired, revoked, malformed, or bound by
 *   RFC 8707 `resource` to another API): 401 `invalid_token` (RFC 6750 §3.1);
 * - a live token without every scope the operation needs: 403 `insufficient_scope`, whose
 *   `scope` names all of them (RFC 6750 §3.1), so one re-consent is enough.
 * Both challenges carry `resource_metadata` (RFC 9728 §5.1).
 */
import type { AccessTokenInfo, AccessTokenVerifier } from '../access-token.js';
import type { Scope } from '../scopes.js';
import { ApiError } from './api-error.js';

export type Caller = { readonly kind: 'anonymous' } | { readonly kind: 'token'; readonly token: AccessTokenInfo };

export type AccessDecision =
  | { readonly allowed: true; readonly caller: Caller }
  | { readonly allowed: false; readonly error: ApiError; readonly challenge: string };

export interface ProtectionConfig {
  readonly verifier: AccessTokenVerifier;
  /** The protected resource identifier of this API (RFC 8707). */
  readonly resource: string;
  /** `<base>/.well-known/oauth-protected-resource`. */
  readonly resourceMetadataUrl: string;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function decideAccess(
  authorization: string | null,
  requiredScopes: readonly Scope[],
  config: ProtectionConfig,
): AccessDecision {
  if (authorization === null) return { allowed: true, caller: { kind: 'anonymous' } };
  const token = BEARER.exec(authorization)?.[1];
  const info = token === undefined ? undefined : config.verifier.verifyAccessToken(token);
  if (info === undefined) {
    return deny('invalid_token', 'the access token is missing, malformed, unknown, expired or revoked', config);
  }
  if (info.resource !== undefined && info.resource !== config.resource) {
    return deny('invalid_token', `the access token is bound to another resource (${info.resource})`, config);
  }
  const granted = new Set(info.scopes);
  const missing = requiredScopes.filter((scope) => !granted.has(scope));
  if (missing.length > 0) {
    return deny(
      'insufficient_scope',
      `this operation needs the scope ${requiredScopes.join(' ')}; missing ${missing.join(' ')}`,
      config,
      requiredScopes,
    );
  }
  return { allowed: true, caller: { kind: 'token', token: info } };
}

function deny(
  code: 'invalid_token' | 'insufficient_scope',
  description: string,
  config: ProtectionConfig,
  scopes: readonly Scope[] = [],
): AccessDecision {
  const scope = scopes.length > 0 ? scopes.join(' ') : undefined;
  return {
    allowed: false,
    error: new ApiError(code, description, scope === undefined ? {} : { scope }),
    challenge: bearerChallenge(code, description, config.resourceMetadataUrl, scopes),
  };
}

/** Pure: the `WWW-Authenticate` value. Quoted values never contain `"` or `\` here. */
function bearerChallenge(
  error: string,
  description: string,
  resourceMetadataUrl: string,
  scopes: readonly string[],
): string {
  const params = [`error="${error}"`, `error_description="${description.replace(/["\\]/g, '')}"`];
  if (scopes.length > 0) params.push(`scope="${scopes.join(' ')}"`);
  params.push(`resource_metadata="${resourceMetadataUrl}"`);
  return `Bearer ${params.join(', ')}`;
}
