/**
 * The text of `who_am_i`: everything its structured result says, in one sentence an agent can
 * quote, so a host that shows only text loses nothing (the school, the user, the roles, the scopes).
 */
import type { AccountStatus } from './account.js';

export function whoAmIText(status: AccountStatus): string {
  if (!status.signedIn) {
    return status.signInAdvice === undefined
      ? `Not signed in to the school ${status.issuer} yet. The first tool call that needs access starts the sign-in.`
      : `Not signed in to the school ${status.issuer}. ${status.signInAdvice}`;
  }
  const user = status.user;
  const organisation = user?.orgId ? ` (organisation ${user.orgId})` : '';
  const who = user ? ` as ${user.name ?? user.sub}${user.email ? ` <${user.email}>` : ''}` : '';
  const roles =
    user?.roles && user.roles.length > 0
      ? ` Roles: ${user.roles.join(', ')}.`
      : user
        ? ' Roles: none stated by the school.'
        : '';
  const expiry =
    status.expiresAt === undefined ? '' : ` Access expires at ${new Date(status.expiresAt).toISOString()}.`;
  return `Signed in to the school ${status.issuer}${organisation}${who}.${roles} Granted scopes: ${status.scopes.join(' ') || '(none)'}.${expiry}`;
}
