/**
 * `GET /auth.md`: the agent-oriented walkthrough of this instance, with its real URLs, in the
 * order the contract gives (discover, register, consent, exchange, call, refresh, revoke).
 */
import { SANDBOX_SCHOOL } from '../school-user.js';
import { PATHS } from './paths.js';

/** Pure: the walkthrough for a server at `issuer`. */
export function renderAuthMd(
  issuer: string,
  lifetimes: { codeTtlSeconds: number; accessTokenTtlSeconds: number; refreshTokenTtlSeconds: number },
): string {
  const at = (path: string) => `${issuer}${path}`;
  return `# Signing in to ${SANDBOX_SCHOOL.name}

This school's API uses OAuth 2.0 with OpenID Connect: Authorization Code with PKCE (S256),
open dynamic client registration for loopback clients, and opaque bearer tokens.
The authorization server metadata is the source of truth if anything here disagrees with it.

- Issuer: \`${issuer}\`
- Authorization server metadata: ${at(PATHS.authorizationServerMetadata)}
- OpenID Connect discovery: ${at(PATHS.openidConfiguration)}
- Protected resource metadata: ${at(PATHS.protectedResourceMetadata)}
- API description: ${at(PATHS.openapi)}

A request without a token is served as anonymous and is never challenged, so do not wait for a
401 to start signing in: read the metadata directly.

## 1. Discover

\`\`\`
GET ${at(PATHS.authorizationServerMetadata)}
\`\`\`

Check that \`issuer\` equals \`${issuer}\` exactly and that \`code_challenge_methods_supported\`
contains \`S256\`. Endpoints: authorization ${at(PATHS.authorization)}, token ${at(PATHS.token)},
registration ${at(PATHS.registration)}, userinfo ${at(PATHS.userinfo)}, revocation ${at(PATHS.revocation)},
introspection ${at(PATHS.introspection)}, keys ${at(PATHS.jwks)}.

## 2. Register (RFC 7591)

\`\`\`
POST ${at(PATHS.registration)}
Content-Type: application/json

{"client_name": "My agent", "application_type": "native",
 "redirect_uris": ["http://127.0.0.1:8765/callback"], "token_endpoint_auth_method": "none"}
\`\`\`

The answer (201) carries \`client_id\`. Redirect URIs must be loopback
(\`http://127.0.0.1:<port>/<path>\`); at authorization time any port matches (RFC 8252 §7.3).
A fixed https callback, \`localhost\` or any other host is refused with \`invalid_redirect_uri\`.
A confidential client registers with \`client_secret_post\` and receives a \`client_secret\`.
A client may instead use an https URL as its \`client_id\` that serves its metadata
(Client ID Metadata Document).

## 3. Obtain the user's consent

Create a PKCE verifier, its S256 challenge and a random \`state\`, then open in the user's browser:

\`\`\`
${at(PATHS.authorization)}?response_type=code&client_id=<client_id>
  &redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&scope=openid%20profile%20courses%3Aread
  &code_challenge=<challenge>&code_challenge_method=S256&state=<state>&resource=${encodeURIComponent(issuer)}
\`\`\`

The user sees the consent page and chooses Allow or Deny. The browser comes back to the redirect
URI with \`code\`, \`state\` and \`iss\` (RFC 9207), or with \`error=access_denied\`. Check that
\`iss\` equals \`${issuer}\` and \`state\` equals yours before using the code.

## 4. Exchange the code

\`\`\`
POST ${at(PATHS.token)}
Content-Type: application/x-www-form-urlencoded

grant_type=authorization_code&code=<code>&redirect_uri=<the same redirect_uri>
&client_id=<client_id>&code_verifier=<verifier>&resource=${encodeURIComponent(issuer)}
\`\`\`

The answer has \`access_token\`, \`token_type\` (Bearer), \`expires_in\`, \`scope\`, \`refresh_token\`,
and an \`id_token\` when \`openid\` was granted. A code works once and for ${lifetimes.codeTtlSeconds} seconds.

## 5. Call the API

\`\`\`
GET ${at(PATHS.userinfo)}
Authorization: Bearer <access_token>
\`\`\`

Access tokens live ${lifetimes.accessTokenTtlSeconds} seconds. An invalid token gets 401 \`invalid_token\`,
a missing scope 403 \`insufficient_scope\`, both with a \`WWW-Authenticate\` header that points
to the protected resource metadata. Ask the user again for the missing scope.

## 6. Refresh

\`\`\`
POST ${at(PATHS.token)}

grant_type=refresh_token&refresh_token=<refresh_token>&client_id=<client_id>
\`\`\`

Every refresh returns a new refresh token; store it before using the new access token. Presenting
a refresh token that was already used revokes the whole grant. Refresh tokens live
${lifetimes.refreshTokenTtlSeconds} seconds.

## 7. Revoke

\`\`\`
POST ${at(PATHS.revocation)}

token=<refresh_token or access_token>&client_id=<client_id>
\`\`\`

Revoking the refresh token also ends the access tokens issued from it. Introspection
(RFC 7662) is at ${at(PATHS.introspection)} with \`token\` and \`client_id\`.

Not supported: the agent-authentication extension (identity assertions, service authentication,
an anonymous claim step). Consent is always given by the user at the authorization endpoint.
`;
}
