/**
 * Who is signed in, from the OpenID userinfo endpoint. Only the claims `status` shows are kept.
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import { freeText } from '../school-text/index.js';

/** Roles shown; a user has a handful, a school that sends thousands is cut here. */
const MAX_ROLES = 20;

export interface SignedInUser {
  sub: string;
  name?: string;
  email?: string;
  org_id?: string;
  roles?: string[];
}

/** Pure: the userinfo claims we show, each checked for type, one line and capped (ERR-05). */
function parseUserClaims(claims: Readonly<Record<string, unknown>>): SignedInUser | undefined {
  const sub = freeText(claims.sub);
  if (!sub) return undefined;
  const name = freeText(claims.name);
  const email = freeText(claims.email);
  const orgId = freeText(claims.org_id);
  const roles = Array.isArray(claims.roles)
    ? claims.roles
        .slice(0, MAX_ROLES)
        .map((role) => freeText(role))
        .filter((role): role is string => !!role)
    : undefined;
  return {
    sub,
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(orgId ? { org_id: orgId } : {}),
    ...(roles ? { roles } : {}),
  };
}

export async function fetchSignedInUser(
  config: client.Configuration,
  accessToken: string,
): Promise<SignedInUser | undefined> {
  if (!config.serverMetadata().userinfo_endpoint) return undefined;
  const oidc = await loadOpenIdClient();
  const claims = await oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck);
  return parseUserClaims(claims as Record<string, unknown>);
}
