/**
 * Whether the stored tokens can be used: only those of the client this session signs in as, for
 * the school's current resource (ST-05, MD-06), and, when they are about to expire, after a
 * refresh if there is a refresh token. Pure.
 */
import { needsRefresh, type TokenSet } from './token-set.js';

export type TokenStanding =
  | { readonly kind: 'sign-in' }
  | { readonly kind: 'use'; readonly tokens: TokenSet }
  | { readonly kind: 'refresh'; readonly tokens: TokenSet };

/** Pure: the stored tokens when they belong to `clientId` and `resource`; a missing one matches nothing. */
export function usableTokensOf(
  tokens: TokenSet | undefined,
  clientId: string | undefined,
  resource: string | undefined,
): TokenSet | undefined {
  if (!tokens || clientId === undefined || resource === undefined) return undefined;
  return tokens.clientId === clientId && tokens.resource === resource ? tokens : undefined;
}

/** Pure: what to do with usable tokens at `now`: use them, refresh them first, or sign in. */
export function tokenStanding(usable: TokenSet | undefined, now: number): TokenStanding {
  if (!usable) return { kind: 'sign-in' };
  return needsRefresh(usable, now) && usable.refreshToken
    ? { kind: 'refresh', tokens: usable }
    : { kind: 'use', tokens: usable };
}
