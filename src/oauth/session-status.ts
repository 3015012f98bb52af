/**
 * What `status` reports about the session. The school's own view of the token (RFC 7662), when it
 * gives one, wins over the local record for scopes and expiry (TK-04). Pure.
 */
import type { IntrospectedToken } from './token-introspection.js';
import type { TokenSet } from './token-set.js';
import type { SignedInUser } from './user-info.js';

export interface SessionStatus {
  issuer: string;
  clientId: string | undefined;
  user: SignedInUser | undefined;
  scopes: string[];
  expiresAt: number | undefined;
  signedIn: boolean;
  /** The school's own view (RFC 7662) when it offers introspection; scopes and expiry then come from it. */
  introspection?: 'active' | 'inactive';
}

/** Pure: the report from what was gathered; `checked` is absent when the school offers no introspection. */
export function sessionStatusOf(gathered: {
  issuer: string;
  clientId: string | undefined;
  user: SignedInUser | undefined;
  tokens: TokenSet | undefined;
  checked: IntrospectedToken | undefined;
}): SessionStatus {
  const { tokens, checked } = gathered;
  return {
    issuer: gathered.issuer,
    clientId: gathered.clientId,
    user: gathered.user,
    scopes: (checked?.active ? checked.scopes : undefined) ?? tokens?.scopes ?? [],
    expiresAt: (checked?.active ? checked.expiresAt : undefined) ?? tokens?.expiresAt,
    signedIn: tokens !== undefined,
    ...(checked ? { introspection: checked.active ? 'active' : 'inactive' } : {}),
  };
}
