/**
 * `POST /api/oauth/revoke` (RFC 7009). Unknown, expired and already revoked tokens answer 200
 * (§2.2: the client cannot do anything about them). Revoking a refresh token ends its whole
 * grant, access tokens included (§2.1). A token of another client is refused and stays valid.
 */
import { authenticateClient } from './client-authentication.js';
import type { AuthContext } from './context.js';
import { OAuthError, answerOAuthErrors } from './oauth-error.js';
import { readFormParameters, requireParameter } from './parameters.js';

export function handleRevocation(context: AuthContext): (request: Request) => Promise<Response> {
  return (request) =>
    answerOAuthErrors(async () => {
      const params = await readFormParameters(request);
      const token = requireParameter(params, 'token');
      const client = await authenticateClient(request, params, context.clients);
      // The hint only orders the lookup (§2.1); both kinds are looked up whatever it says.
      const refresh = context.grants.findRefreshToken(token);
      const access = context.grants.findAccessToken(token);
      const owner = refresh?.family.clientId ?? access?.family.clientId;
      if (owner !== undefined && owner !== client.clientId) {
        throw new OAuthError('invalid_request', 'the token was not issued to this client');
      }
      if (refresh) context.grants.revokeFamily(refresh.family.id);
      if (access) context.grants.revokeAccessToken(token);
      return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
    });
}
