/**
 * `POST /api/oauth/token` (RFC 6749 §3.2): form-encoded only, answers never cached.
 */
import { exchangeAuthorizationCode } from './authorization-code-grant.js';
import { authenticateClient } from './client-authentication.js';
import type { AuthContext } from './context.js';
import { OAuthError, answerOAuthErrors } from './oauth-error.js';
import { readFormParameters, requireParameter } from './parameters.js';
import { exchangeRefreshToken } from './refresh-token-grant.js';
import { jsonResponse } from './responses.js';

export function handleToken(context: AuthContext): (request: Request) => Promise<Response> {
  return (request) =>
    answerOAuthErrors(async () => {
      const params = await readFormParameters(request);
      const grantType = requireParameter(params, 'grant_type');
      const client = await authenticateClient(request, params, context.clients);
      switch (grantType) {
        case 'authorization_code':
          return jsonResponse(exchangeAuthorizationCode(context, client, params));
        case 'refresh_token':
          return jsonResponse(exchangeRefreshToken(context, client, params));
        default:
          throw new OAuthError('unsupported_grant_type', `grant_type ${grantType.slice(0, 60)} is not supported`);
      }
    });
}
