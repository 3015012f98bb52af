/**
 * When a failed request to the school is worth sending once more, and after how long. Pure: the
 * clock and the randomness come in. The code exchange is never retried (TK-03); a refresh at most
 * once after a transient failure (NET-05, RF-05); a revocation once after a 503 (RV-02).
 */
import { loadedOpenIdClient } from './openid-client-module.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { OAuthError } from './oauth-error.js';

/** Waits; injectable so that tests do not wait for real. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);

/** RFC 9110 §15.6: the server errors that say "try again later" rather than "this is wrong". */
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/** A `Retry-After` longer than this is not waited for: the caller gets the error at once. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Backoff before a retry when the school names no delay: 500 ms plus up to 500 ms of jitter. */
const BASE_BACKOFF_MS = 500;

/** A network failure, a timeout, or a 500/502/503/504 from the school. */
export function isTransient(error: OAuthError): boolean {
  if (error.code === 'OAUTH_NETWORK') return true;
  const status = error.details?.status;
  return error.code === 'OAUTH_SERVER_ERROR' && typeof status === 'number' && TRANSIENT_STATUSES.has(status);
}

/**
 * How long to wait before the one retry: the school's `Retry-After` when it gave one, else a short
 * jittered backoff; `undefined` when the school asks for longer than we are willing to hold a call.
 */
export function retryDelayMs(retryAfterMs: number | undefined, random: number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : retryAfterMs;
  return BASE_BACKOFF_MS + Math.floor(Math.min(Math.max(random, 0), 1) * BASE_BACKOFF_MS);
}

/** The `Retry-After` header of the HTTP response behind an openid-client error, if any. */
export function retryAfterHeaderOf(error: unknown): string | undefined {
  const oidc = loadedOpenIdClient();
  for (let current: unknown = error, depth = 0; current && depth < 8; depth += 1) {
    if (oidc && current instanceof oidc.ResponseBodyError)
      return current.response.headers.get('retry-after') ?? undefined;
    if (current instanceof Response) return current.headers.get('retry-after') ?? undefined;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
