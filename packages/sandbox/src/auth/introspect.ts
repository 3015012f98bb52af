/**
 * `POST /api/oauth/introspect` (RFC 7662). A client may introspect its own tokens; anything
 * else, including another client's token, is `{ "active": false }` so nothing leaks (§2.2).
 */
import { authenticateClient } from './client-authentication.js';
import type { AuthContext } from './context.js';
import type { AccessTokenRecord, GrantFamily } from './grant-store.js';
import { answerOAuthErrors } from './oauth-error.js';
import { readFormParameters, requireParameter } from './parameters.js';
import { jsonResponse } from './responses.js';
import { formatScope } from './scope.js';

export function handleIntrospection(context: AuthContext): (request: Request) => Promise<Response> {
  return (request) =>
    answerOAuthErrors(async () => {
      const params = await readFormParameters(request);
      const token = requireParameter(params, 'token');
      const client = await authenticateClient(request, params, context.clients);
      const access = context.grants.activeAccessToken(token);
      if (access && access.family.clientId === client.clientId)
        return jsonResponse(describeAccessToken(context.issuer, access));
      const refresh = context.grants.activeRefreshToken(token);
      if (refresh && refresh.family.clientId === client.clientId) {
        return jsonResponse({
          ...describeGrant(context.issuer, refresh.family, refresh.family.scopes, refresh.family.resource),
          token_type: 'refresh_token',
          iat: refresh.issuedAt,
          exp: refresh.expiresAt,
        });
      }
      return jsonResponse({ active: false });
    });
}

/** Pure: the RFC 7662 §2.2 answer for an active access token; `aud` is its resource binding. */
function describeAccessToken(issuer: string, token: AccessTokenRecord): Record<string, unknown> {
  return {
    ...describeGrant(issuer, token.family, token.scopes, token.resource),
    token_type: 'Bearer',
    iat: token.issuedAt,
    exp: token.expiresAt,
  };
}

function describeGrant(
  issuer: string,
  family: GrantFamily,
  scopes: readonly string[],
  resource: string | undefined,
): Record<string, unknown> {
  return {
    active: true,
    scope: formatScope(scopes),
    client_id: family.clientId,
    sub: family.subject,
    iss: issuer,
    ...(resource === undefined ? {} : { aud: resource }),
  };
}
