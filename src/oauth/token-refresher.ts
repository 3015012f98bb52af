/**
 * Refresh, single-flight within the process (one promise) and across processes (a lock file,
 * then a fresh read of the store: whoever comes second finds the new tokens and does not
 * refresh again). A rotated refresh token is on disk before the new access token is handed out
 * (RF-01..RF-03, RF-05). A transient failure (network, timeout, 500/502/503/504) is retried
 * once after a short backoff and never turns into a new sign-in (RF-05, NET-05).
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import { acquireLock } from './file-lock.js';
import { OAuthError } from './oauth-error.js';
import { endsGrant, oauthErrorCodeOf, toOAuthError } from './protocol-error.js';
import { parseRetryAfter } from '../network/index.js';
import { isTransient, realSleep, retryAfterHeaderOf, retryDelayMs, type Sleep } from './retry-policy.js';
import type { StoreRecord, StoredClient } from './store-record.js';
import { needsRefresh, tokenSetFromResponse, type TokenSet } from './token-set.js';
import type { TokenStore } from './token-store.js';

export interface TokenRefresherOptions {
  store: TokenStore;
  logger: Logger;
  now: () => number;
  /** The client that obtained these tokens, or undefined when it is gone. */
  clientOf(record: StoreRecord): StoredClient | undefined;
  usableTokens(record: StoreRecord): TokenSet | undefined;
  configuration(stored: StoredClient): Promise<client.Configuration>;
  /** How long to wait for another process's refresh. */
  lockWaitMs?: number;
  /** The backoff's wait and jitter; real ones by default. */
  sleep?: Sleep;
  random?: () => number;
}

export interface TokenRefresher {
  /** Tokens newer than `staleAccessToken`, refreshing if nobody else did. */
  refresh(staleAccessToken: string, signal?: AbortSignal): Promise<TokenSet>;
}

function signInRequired(reason: string): OAuthError {
  return new OAuthError('OAUTH_SIGN_IN_REQUIRED', `Sign-in is needed again: ${reason}.`, {
    hint: 'Approve the sign-in in the browser, or run `school-mcp login`.',
  });
}

export function createTokenRefresher(options: TokenRefresherOptions): TokenRefresher {
  let inFlight: Promise<TokenSet> | undefined;

  async function refreshUnderLock(stale: string): Promise<TokenSet> {
    const lock = await acquireLock(options.store.lockPath('refresh'), {
      ...options.store.lockOptions,
      waitMs: options.lockWaitMs ?? 30_000,
      what: 'refresh',
    });
    try {
      const record = await options.store.read();
      const tokens = options.usableTokens(record);
      if (!tokens) throw signInRequired('no tokens are stored');
      if (tokens.accessToken !== stale && !needsRefresh(tokens, options.now())) return tokens;
      const stored = options.clientOf(record);
      if (!tokens.refreshToken || !stored) throw signInRequired('there is no refresh token');
      options.logger.redact(tokens.refreshToken, 'rotating');
      const config = await options.configuration(stored);
      const refreshToken = tokens.refreshToken;
      // RF-07: no `scope` (the grant keeps its scopes); the same `resource` as before (AZ-05).
      const oidc = await loadOpenIdClient();
      const grant = () => oidc.refreshTokenGrant(config, refreshToken, { resource: tokens.resource });
      const failed = async (error: unknown): Promise<never> => {
        const code = oauthErrorCodeOf(error);
        if (endsGrant(error)) {
          // RF-05/RF-06: the grant is dead (expired, revoked, or reuse was detected); drop it once.
          await options.store.update((current) => {
            const next = { ...current };
            if (next.tokens?.refreshToken === refreshToken) delete next.tokens;
            if (code === 'invalid_client' && next.client?.kind === 'dynamic') delete next.client;
            return next;
          });
          options.logger.info('the school no longer accepts the refresh token; a new sign-in is needed', {
            error: code,
          });
          throw signInRequired(
            code === 'invalid_grant' ? 'the school ended the previous grant' : 'the school no longer knows this client',
          );
        }
        throw toOAuthError(error, 'refresh');
      };
      let response: client.TokenEndpointResponse;
      try {
        response = await grant();
      } catch (error) {
        const wait = retryDelayAfter(error);
        if (wait === undefined) return await failed(error);
        options.logger.info('the refresh failed for a passing reason; trying once more', {
          error: toOAuthError(error, 'refresh').code,
          waitMs: wait,
        });
        await (options.sleep ?? realSleep)(wait);
        // NET-05: at most one retry; a second failure is reported as it is.
        response = await grant().catch(failed);
      }
      const next = tokenSetFromResponse(response as unknown as Record<string, unknown>, {
        requestedScopes: tokens.scopes,
        resource: tokens.resource,
        clientId: tokens.clientId,
        now: options.now(),
        previous: tokens,
      });
      options.logger.redact(next.accessToken, 'rotating');
      options.logger.redact(next.refreshToken, 'rotating');
      // RF-03: the rotated refresh token is saved before anyone uses the new access token; a
      // failed save is reported, never swallowed.
      await options.store.update((current) => ({ ...current, tokens: next }));
      return next;
    } finally {
      await lock.release();
    }
  }

  /** The backoff before the single retry, or `undefined` when this failure is not retried. */
  function retryDelayAfter(error: unknown): number | undefined {
    if (!isTransient(toOAuthError(error, 'refresh'))) return undefined;
    return retryDelayMs(parseRetryAfter(retryAfterHeaderOf(error), options.now()), (options.random ?? Math.random)());
  }

  return {
    refresh(staleAccessToken, signal) {
      // Shared work is never cancelled by one caller's signal; each caller stops waiting on its own.
      const shared = (inFlight ??= refreshUnderLock(staleAccessToken).finally(() => {
        inFlight = undefined;
      }));
      if (!signal) return shared;
      signal.throwIfAborted();
      return new Promise<TokenSet>((resolve, reject) => {
        const onAbort = () =>
          reject(
            new OAuthError('OAUTH_ABORTED', 'The request was cancelled during a token refresh.', {
              hint: 'Try again.',
            }),
          );
        signal.addEventListener('abort', onAbort, { once: true });
        shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
  };
}
