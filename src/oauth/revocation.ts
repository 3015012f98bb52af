/**
 * Sign-out (RFC 7009): the refresh token first (revoking it should end the whole grant, §2.1),
 * then the access token. Tokens are forgotten locally before any request, and a refresh token
 * whose revocation was not confirmed is kept aside to be retried, never used again (RV-03). A 503
 * or a network failure is tried once more, after the school's `Retry-After` when it gives one
 * (RFC 7009 §2.2.1, RV-02, NET-05).
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import { oauthErrorCodeOf, toOAuthError } from './protocol-error.js';
import { parseRetryAfter } from '../network/index.js';
import { isTransient, realSleep, retryAfterHeaderOf, retryDelayMs, type Sleep } from './retry-policy.js';
import type { PendingRevocation } from './store-record.js';

export interface RevocationOutcome {
  confirmed: PendingRevocation[];
  unconfirmed: PendingRevocation[];
}

/** The order of requests for one sign-out. Pure. */
export function revocationQueue(input: {
  accessToken?: string;
  refreshToken?: string;
  clientId: string;
  pending: readonly PendingRevocation[];
}): PendingRevocation[] {
  const queue: PendingRevocation[] = [...input.pending];
  if (input.refreshToken) queue.push({ token: input.refreshToken, hint: 'refresh_token', clientId: input.clientId });
  if (input.accessToken) queue.push({ token: input.accessToken, hint: 'access_token', clientId: input.clientId });
  return queue;
}

export interface RevocationOptions {
  logger: Logger;
  /** The wait before the one retry, and the clock an HTTP-date `Retry-After` is read against. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
}

export async function revokeAll(
  queue: readonly PendingRevocation[],
  configurationFor: (clientId: string) => Promise<client.Configuration | undefined>,
  options: RevocationOptions,
): Promise<RevocationOutcome> {
  const outcome: RevocationOutcome = { confirmed: [], unconfirmed: [] };
  for (const item of queue) {
    const config = await configurationFor(item.clientId);
    if (!config) {
      outcome.unconfirmed.push(item);
      continue;
    }
    if (await revokeOne(config, item, options)) outcome.confirmed.push(item);
    else outcome.unconfirmed.push(item);
  }
  return outcome;
}

/** True when the school confirmed (RFC 7009 §2.2: 200, also for a token it no longer knows). */
async function revokeOne(
  config: client.Configuration,
  item: PendingRevocation,
  options: RevocationOptions,
): Promise<boolean> {
  const oidc = await loadOpenIdClient();
  const attempt = () => oidc.tokenRevocation(config, item.token, { token_type_hint: item.hint });
  try {
    await attempt();
    return true;
  } catch (error) {
    if (acceptedRefusal(error, item)) return true;
    const wait = isTransient(toOAuthError(error, 'revocation'))
      ? retryDelayMs(
          parseRetryAfter(retryAfterHeaderOf(error), (options.now ?? Date.now)()),
          (options.random ?? Math.random)(),
        )
      : undefined;
    if (wait === undefined) {
      options.logger.warn('a token could not be revoked', { kind: item.hint, error });
      return false;
    }
    await (options.sleep ?? realSleep)(wait);
    try {
      await attempt();
      return true;
    } catch (second) {
      if (acceptedRefusal(second, item)) return true;
      options.logger.warn('a token could not be revoked, also on the second try', { kind: item.hint, error: second });
      return false;
    }
  }
}

/**
 * RFC 7009 §2.2.1: a school that cannot revoke access tokens on their own answers
 * `unsupported_token_type`; the access token still dies with its refresh token, which was sent first.
 */
function acceptedRefusal(error: unknown, item: PendingRevocation): boolean {
  return oauthErrorCodeOf(error) === 'unsupported_token_type' && item.hint === 'access_token';
}
