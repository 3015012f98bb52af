/**
 * The tokens we keep, and how a token endpoint response becomes them. Pure.
 * RFC 6749 §5.1 (response), §7.1 (unknown token types are refused), RFC 9700 §4.14 (rotation).
 */
import { OAuthError } from './oauth-error.js';
import { grantedFromResponse } from './scopes.js';
import { quotedText } from '../school-text/index.js';

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Milliseconds since the epoch; absent when the school gave no `expires_in`. */
  expiresAt?: number;
  /** Granted scopes, normalised. */
  scopes: string[];
  /** The RFC 8707 resource the grant is bound to; a different resource means a different grant. */
  resource: string;
  /** The client that obtained the grant; tokens never outlive their registration. */
  clientId: string;
  obtainedAt: number;
}

/** Refresh this long before expiry at most (RF-08). */
const REFRESH_AHEAD_MS = 60_000;

function invalid(message: string): OAuthError {
  return new OAuthError('OAUTH_INVALID_TOKEN_RESPONSE', message, {
    hint: 'The school answered with something this client cannot use; try signing in again.',
  });
}

/** `expires_in` as a number of seconds, accepting a numeric string; anything else is unknown. */
export function parseExpiresIn(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

export function tokenSetFromResponse(
  response: Readonly<Record<string, unknown>>,
  context: { requestedScopes: readonly string[]; resource: string; clientId: string; now: number; previous?: TokenSet },
): TokenSet {
  const { access_token: accessToken, token_type: tokenType, refresh_token: refreshToken } = response;
  if (typeof accessToken !== 'string' || accessToken.length === 0)
    throw invalid('The token response has no access token.');
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') {
    throw invalid(`The token response has an unsupported token type (${quotedText(tokenType, 20)}).`);
  }
  if (refreshToken !== undefined && (typeof refreshToken !== 'string' || refreshToken.length === 0)) {
    throw invalid('The token response has a malformed refresh token.');
  }
  const expiresIn = parseExpiresIn(response.expires_in);
  // RF-04: a refresh response without a new refresh token keeps the old one.
  const keptRefresh = refreshToken ?? context.previous?.refreshToken;
  return {
    accessToken,
    ...(keptRefresh ? { refreshToken: keptRefresh } : {}),
    ...(expiresIn !== undefined ? { expiresAt: context.now + expiresIn * 1000 } : {}),
    scopes: grantedFromResponse(response.scope, context.previous?.scopes ?? context.requestedScopes),
    resource: context.resource,
    clientId: context.clientId,
    obtainedAt: context.now,
  };
}

/**
 * True when the access token should be refreshed before use: less than a minute left, or less
 * than half its lifetime for short-lived tokens. Unknown expiry means "use it and rely on 401".
 */
export function needsRefresh(tokens: Pick<TokenSet, 'expiresAt' | 'obtainedAt'>, now: number): boolean {
  if (tokens.expiresAt === undefined) return false;
  const lifetime = tokens.expiresAt - tokens.obtainedAt;
  const margin = Math.min(REFRESH_AHEAD_MS, Math.max(0, lifetime / 2));
  return tokens.expiresAt - now <= margin;
}
