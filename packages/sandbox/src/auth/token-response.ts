/**
 * The successful token response (RFC 6749 §5.1), with an ID token when `openid` was granted.
 */
import type { Client } from './client.js';
import type { AuthContext } from './context.js';
import type { IssuedTokens } from './grant-store.js';
import { signIdToken } from './id-token.js';
import { formatScope } from './scope.js';
import { userClaims } from './user-claims.js';

export interface TokenResponseBody {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

/** Pure: the body for issued tokens. */
export function buildTokenResponse(issued: IssuedTokens, idToken: string | undefined): TokenResponseBody {
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: issued.access.expiresAt - issued.access.issuedAt,
    scope: formatScope(issued.access.scopes),
    ...(issued.refreshToken === undefined ? {} : { refresh_token: issued.refreshToken }),
    ...(idToken === undefined ? {} : { id_token: idToken }),
  };
}

/** The ID token for a code exchange, when the grant includes `openid`. */
export function idTokenFor(
  context: AuthContext,
  client: Client,
  issued: IssuedTokens,
  nonce: string | undefined,
): string | undefined {
  const { access } = issued;
  if (!access.scopes.includes('openid')) return undefined;
  return signIdToken(
    {
      ...userClaims(access.scopes, access.family.subject),
      iss: context.issuer,
      aud: client.clientId,
      iat: access.issuedAt,
      exp: access.expiresAt,
      auth_time: access.family.authTime,
      ...(nonce === undefined ? {} : { nonce }),
    },
    context.signingKey(),
  );
}
