/**
 * `GET /api/oauth/userinfo` (OpenID Connect Core §5.3): the signed-in user's claims as the
 * token's scopes allow, plus the school's `org_id` and the user's `roles`.
 */
import { findStaffMember, SANDBOX_SCHOOL, SANDBOX_USER } from '../school-user.js';
import { buildBearerChallenge, readBearerToken, type Challenge } from './bearer.js';
import type { AuthContext } from './context.js';
import { protectedResourceMetadataUrl } from './metadata.js';
import { jsonResponse } from './responses.js';
import { userClaims } from './user-claims.js';

type ChallengeFields = Required<Pick<Challenge, 'error' | 'description'>> & Pick<Challenge, 'scope'>;

export function handleUserInfo(context: AuthContext): (request: Request) => Response {
  const refuse = (status: number, fields: ChallengeFields | undefined): Response =>
    jsonResponse(
      {
        error: fields?.error ?? 'invalid_token',
        error_description: fields?.description ?? 'a bearer token is required',
      },
      {
        status,
        headers: {
          // RFC 6750 §3.1: a request that sent no credentials gets a challenge without an error code.
          'www-authenticate': buildBearerChallenge({
            realm: context.issuer,
            resourceMetadata: protectedResourceMetadataUrl(context.issuer),
            ...fields,
          }),
        },
      },
    );

  return (request) => {
    const credential = readBearerToken(request.headers.get('authorization'));
    if (credential.kind === 'absent') return refuse(401, undefined);
    if (credential.kind === 'malformed')
      return refuse(400, { error: 'invalid_request', description: 'the Authorization header is not a bearer token' });
    const token = context.grants.activeAccessToken(credential.token);
    if (!token || (token.resource !== undefined && token.resource !== context.resource)) {
      return refuse(401, { error: 'invalid_token', description: 'the access token is unknown, expired or revoked' });
    }
    if (!token.scopes.includes('openid')) {
      return refuse(403, {
        error: 'insufficient_scope',
        description: 'userinfo needs the openid scope',
        scope: 'openid',
      });
    }
    const subject = token.family.subject;
    return jsonResponse({
      ...userClaims(token.scopes, subject),
      org_id: SANDBOX_SCHOOL.orgId,
      roles: (findStaffMember(subject) ?? SANDBOX_USER).roles,
    });
  };
}
