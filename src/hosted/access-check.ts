/**
 * Who a request to `/mcp` comes from: the bearer token must be one this server issued, unexpired
 * and unrevoked, and bound to this server's public URL (RFC 8707 audience). Any other request gets
 * 401 and the challenge that leads to the metadata (RFC 9728 §5.1).
 * @see SECURITY.md HOST-01, HOST-02
 */
import type Provider from 'oidc-provider';
import { bearerTokenOf } from '../network/index.js';
import type { PublicUrl } from './public-url.js';
import type { TokenRefusal } from './resource-metadata.js';

/** The person and the client a token speaks for. */
export interface HostedCaller {
  /** The staff member's subject at the school. */
  readonly sub: string;
  readonly clientId: string;
  readonly grantId: string;
}

export type AccessVerdict =
  | { readonly ok: true; readonly caller: HostedCaller }
  | { readonly ok: false; readonly refusal: TokenRefusal };

export async function checkAccess(
  provider: Provider,
  publicUrl: PublicUrl,
  authorization: readonly string[] | undefined,
): Promise<AccessVerdict> {
  const token = bearerTokenOf(authorization);
  if (token === undefined) return { ok: false, refusal: authorization === undefined ? 'missing' : 'invalid' };
  const found = await provider.AccessToken.find(token);
  if (found === undefined || found.isExpired) return { ok: false, refusal: 'invalid' };
  const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
  if (!audiences.includes(publicUrl.base) || found.accountId === undefined || found.grantId === undefined)
    return { ok: false, refusal: 'invalid' };
  const grant = await provider.Grant.find(found.grantId);
  if (grant === undefined || found.clientId === undefined || grant.clientId !== found.clientId)
    return { ok: false, refusal: 'invalid' };
  return { ok: true, caller: { sub: found.accountId, clientId: found.clientId, grantId: found.grantId } };
}
