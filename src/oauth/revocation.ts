/**
 * Sign-out (RFC 7009): the refresh token first (revoking it should end the whole grant, §2.1),
 * then the access token. Tokens are forgotten locally before any request, and a refresh token
 * whose revocation was not confirmed is kept aside to be retried, never used again (RV-03).
 */
import * as client from 'openid-client';
import type { Logger } from '../log.js';
import { oauthErrorCodeOf } from './protocol-error.js';
import type { PendingRevocation } from './store-record.js';

export interface RevocationOutcome {
  confirmed: PendingRevocation[];
  unconfirmed: PendingRevocation[];
}

/** The order of requests for one sign-out. Pure. */
export function revocationQueue(input: { accessToken?: string; refreshToken?: string; clientId: string; pending: readonly PendingRevocation[] }): PendingRevocation[] {
  const queue: PendingRevocation[] = [...input.pending];
  if (input.refreshToken) queue.push({ token: input.refreshToken, hint: 'refresh_token', clientId: input.clientId });
  if (input.accessToken) queue.push({ token: input.accessToken, hint: 'access_token', clientId: input.clientId });
  return queue;
}

export async function revokeAll(
  queue: readonly PendingRevocation[],
  configurationFor: (clientId: string) => client.Configuration | undefined,
  logger: Logger,
): Promise<RevocationOutcome> {
  const outcome: RevocationOutcome = { confirmed: [], unconfirmed: [] };
  for (const item of queue) {
    const config = configurationFor(item.clientId);
    if (!config) {
      outcome.unconfirmed.push(item);
      continue;
    }
    try {
      await client.tokenRevocation(config, item.token, { token_type_hint: item.hint });
      outcome.confirmed.push(item);
    } catch (error) {
      // RFC 7009 §2.2.1: an access token the school cannot revoke on its own still dies with
      // its refresh token, which was sent first.
      if (oauthErrorCodeOf(error) === 'unsupported_token_type' && item.hint === 'access_token') {
        outcome.confirmed.push(item);
        continue;
      }
      logger.warn('a token could not be revoked', { kind: item.hint, error });
      outcome.unconfirmed.push(item);
    }
  }
  return outcome;
}
