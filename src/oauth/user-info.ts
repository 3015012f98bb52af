/**
 * Who is signed in, from the OpenID userinfo endpoint. Only the claims `status` shows are kept.
 */
import * as client from 'openid-client';
import { safeText } from './protocol-error.js';

export interface SignedInUser {
  sub: string;
  name?: string;
  email?: string;
  org_id?: string;
  roles?: string[];
}

/** Pure: the userinfo claims we show, each checked for type and capped. */
export function parseUserClaims(claims: Readonly<Record<string, unknown>>): SignedInUser | undefined {
  const sub = safeText(claims.sub);
  if (!sub) return undefined;
  const name = safeText(claims.name);
  const email = safeText(claims.email);
  const orgId = safeText(claims.org_id);
  const roles = Array.isArray(claims.roles) ? claims.roles.map(safeText).filter((role): role is string => !!role) : undefined;
  return { sub, ...(name ? { name } : {}), ...(email ? { email } : {}), ...(orgId ? { org_id: orgId } : {}), ...(roles ? { roles } : {}) };
}

export async function fetchSignedInUser(config: client.Configuration, accessToken: string): Promise<SignedInUser | undefined> {
  if (!config.serverMetadata().userinfo_endpoint) return undefined;
  const claims = await client.fetchUserInfo(config, accessToken, client.skipSubjectCheck);
  return parseUserClaims(claims as Record<string, unknown>);
}
