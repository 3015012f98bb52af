/**
 * Which facts about the signed-in user a grant reveals (OpenID Connect Core §5.4): `name` with
 * `profile`, `email` with `email`. The subject is always known to the client.
 */
import { SANDBOX_USER } from '../school-user.js';

export interface UserClaims {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/** Pure: the claims the scopes allow. */
export function userClaims(scopes: readonly string[]): UserClaims {
  return {
    sub: SANDBOX_USER.sub,
    ...(scopes.includes('profile') ? { name: SANDBOX_USER.name } : {}),
    ...(scopes.includes('email') ? { email: SANDBOX_USER.email, email_verified: true } : {}),
  };
}
