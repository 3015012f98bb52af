/**
 * The `refresh_token` grant (RFC 6749 §6) with rotation: every use returns a new refresh token,
 * and presenting a superseded one revokes the whole grant (RFC 9700 §4.14.2), because either the
 * client or an attacker holds a stolen copy and the server cannot tell which.
 */
import type { Client } from './client.js';
import type { AuthContext } from './context.js';
import { OAuthError } from './oauth-error.js';
import { requireParameter, type Parameters } from './parameters.js';
import { checkResourceIndicator } from './resource-indicator.js';
import { narrowScope, parseScope } from './scope.js';
import { buildTokenResponse, type TokenResponseBody } from './token-response.js';

export function exchangeRefreshToken(context: AuthContext, client: Client, params: Parameters): TokenResponseBody {
  if (!client.grantTypes.includes('refresh_token'))
    throw new OAuthError('unauthorized_client', 'this client is not registered for the refresh_token grant');
  const token = requireParameter(params, 'refresh_token');
  const { grants } = context;

  const record = grants.findRefreshToken(token);
  if (!record || record.family.clientId !== client.clientId)
    throw new OAuthError('invalid_grant', 'the refresh token is invalid');
  if (record.superseded) {
    grants.noteRefreshTokenReuse(record.family);
    grants.revokeFamily(record.family.id);
    throw new OAuthError('invalid_grant', 'the refresh token was already used; every token of this grant is revoked');
  }
  if (record.family.revoked) throw new OAuthError('invalid_grant', 'the refresh token was revoked');
  if (grants.isExpired(record.expiresAt)) throw new OAuthError('invalid_grant', 'the refresh token has expired');

  let scopes = record.family.scopes;
  if (params.has('scope')) {
    const requested = parseScope(params.get('scope'));
    const narrowed = requested.ok ? narrowScope(record.family.scopes, requested.scopes) : undefined;
    if (!narrowed) throw new OAuthError('invalid_scope', 'a refresh may only narrow the granted scope');
    scopes = narrowed;
  }

  const resource = checkResourceIndicator(params.get('resource'), context.resource);
  if (!resource.ok) throw new OAuthError('invalid_target', resource.reason);
  if (
    record.family.resource !== undefined &&
    resource.resource !== undefined &&
    resource.resource !== record.family.resource
  ) {
    throw new OAuthError('invalid_target', 'resource differs from the one this grant is bound to');
  }

  const issued = grants.refresh(token, record, {
    scopes,
    resource: resource.resource ?? record.family.resource,
    rotate: !context.settings.faults.disableRefreshRotation,
  });
  return buildTokenResponse(issued, undefined);
}
