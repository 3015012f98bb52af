/**
 * Which facts about the signed-in user a grant reveals (OpenID Connect Core §5.4): `name` with
 * `profile`, `email` with `email`. The subject is always known to the client.
 */
import { findStaffMember, SANDBOX_USER } from '../school-user.js';

export interface UserClaims {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/** Pure: the claims the scopes allow about the staff member `subject`. */
export function userClaims(scopes: readonly string[], subject: string): UserClaims {
  const user = findStaffMember(subject) ?? SANDBOX_USER;
  return {
    sub: user.sub,
    ...(scopes.includes('profile') ? { name: user.name } : {}),
    ...(scopes.includes('email') ? { email: user.email, email_verified: true } : {}),
  };
}
