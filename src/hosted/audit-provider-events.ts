/**
 * The authorization server's own events, as audit events: node-oidc-provider says when a client
 * registered or was refused (`registration_create.*`), and when it ended a grant (`grant.revoked`,
 * after `revokeGrantPolicy` in authorization-server.ts): a rotated refresh token or a code used
 * again, or a client's revocation request (RFC 7009). The engine's error, not its description,
 * is kept: a description can quote what the client sent.
 * @see SECURITY.md HOST-56, HOST-57
 */
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AuditLog } from '../audit/index.js';

export function auditProviderEvents(provider: Provider, audit: AuditLog): void {
  provider.on(
    'registration_create.success',
    (_ctx: KoaContextWithOIDC, client: { clientId: string; clientName?: string }) => {
      audit.record({ event: 'registration', outcome: 'ok', clientId: client.clientId, clientName: client.clientName });
    },
  );
  provider.on('registration_create.error', (_ctx: KoaContextWithOIDC, error: { error?: string }) => {
    audit.record({ event: 'registration', outcome: 'refused', error: error.error ?? 'invalid_request' });
  });
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC) => {
    const { entities, route } = ctx.oidc;
    const token = entities.RefreshToken ?? entities.AuthorizationCode ?? entities.AccessToken;
    audit.record({
      event: 'grant_revoked',
      outcome: 'ok',
      sub: token?.accountId,
      clientId: ctx.oidc.client?.clientId,
      reason: revocationReason(route, entities),
    });
  });
}

/** Pure: why the engine ended a grant, from the route and what it had loaded. */
export function revocationReason(
  route: string | undefined,
  entities: { readonly RefreshToken?: unknown; readonly AuthorizationCode?: unknown },
): string {
  if (route === 'token') return entities.RefreshToken !== undefined ? 'refresh_token_reuse' : 'code_reuse';
  if (route === 'revocation') return 'revocation_request';
  // The engine's own end-session page (RP-initiated logout) ends the grants of the session.
  return route?.startsWith('end_session') ? 'logout' : 'other';
}
