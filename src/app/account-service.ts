/** The account tools' view of a sign-in session: its status as the server shows it, and sign-out. */
import type { SignInSession } from '../consent/index.js';
import type { AccountService } from '../server/index.js';

export function accountServiceOf(
  session: SignInSession,
  signOut: () => ReturnType<AccountService['signOut']>,
): AccountService {
  return {
    async status() {
      const status = await session.status();
      return {
        signedIn: status.signedIn,
        issuer: status.issuer,
        clientId: status.clientId,
        user: status.user
          ? {
              sub: status.user.sub,
              ...(status.user.name ? { name: status.user.name } : {}),
              ...(status.user.email ? { email: status.user.email } : {}),
              ...(status.user.org_id ? { orgId: status.user.org_id } : {}),
              ...(status.user.roles ? { roles: status.user.roles } : {}),
            }
          : undefined,
        scopes: status.scopes,
        expiresAt: status.expiresAt,
      };
    },
    signOut,
  };
}
