/**
 * The `authorization_code` grant (RFC 6749 §4.1.3, RFC 7636 §4.6). All five parameters are
 * required; a code works once, for its client, its redirect URI and its PKCE verifier.
 */
import type { Client } from './client.js';
import type { AuthContext } from './context.js';
import { OAuthError } from './oauth-error.js';
import { requireParameter, type Parameters } from './parameters.js';
import { verifyCodeVerifier } from './pkce.js';
import { checkResourceIndicator } from './resource-indicator.js';
import { buildTokenResponse, idTokenFor, type TokenResponseBody } from './token-response.js';

export function exchangeAuthorizationCode(context: AuthContext, client: Client, params: Parameters): TokenResponseBody {
  const code = requireParameter(params, 'code');
  const redirectUri = requireParameter(params, 'redirect_uri');
  const verifier = requireParameter(params, 'code_verifier');
  const { grants } = context;

  const record = grants.findCode(code);
  if (!record || record.clientId !== client.clientId)
    throw new OAuthError('invalid_grant', 'the authorization code is invalid');
  if (record.familyId !== undefined) {
    // RFC 6749 §4.1.2: a replayed code SHOULD revoke every token issued from it.
    grants.revokeFamily(record.familyId);
    throw new OAuthError(
      'invalid_grant',
      'the authorization code was already used; the tokens issued with it are revoked',
    );
  }
  if (grants.isExpired(record.expiresAt)) throw new OAuthError('invalid_grant', 'the authorization code has expired');
  if (redirectUri !== record.redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the one in the authorization request');
  // A wrong verifier does not use the code up: the real client may still be about to redeem it.
  if (!verifyCodeVerifier(verifier, record.codeChallenge))
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');

  const resource = checkResourceIndicator(params.get('resource'), context.resource);
  if (!resource.ok) throw new OAuthError('invalid_target', resource.reason);
  if (record.resource !== undefined && resource.resource !== undefined && resource.resource !== record.resource) {
    throw new OAuthError('invalid_target', 'resource differs from the one in the authorization request');
  }

  const issued = grants.redeemCode(record, {
    resource: resource.resource ?? record.resource,
    withRefreshToken: client.grantTypes.includes('refresh_token'),
  });
  return buildTokenResponse(issued, idTokenFor(context, client, issued, record.nonce));
}
