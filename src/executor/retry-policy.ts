/**
 * When to try a request again, and after how long. Pure.
 * @see SECURITY.md NET-04 (RFC 9110 §9.2.2, §10.2.3, §15.6.4; RFC 6585 §4)
 */

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  readonly maxAttempts: number;
  /** Full-jitter backoff: a random delay in [0, min(maxDelayMs, baseDelayMs × 2^retry)). */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the caller gets "retry after …" at once. */
  readonly maxRetryAfterMs: number;
  /** Total time spent sleeping between attempts of one call. */
  readonly budgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  budgetMs: 30_000,
};

/** RFC 9110 §9.2.2: repeating these has the same effect as sending them once. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

type NoRetryReason =
  | 'not-retryable'
  | 'not-idempotent'
  | 'attempts-exhausted'
  | 'retry-after-too-long'
  | 'budget-exhausted';

export type RetryDecision =
  | { readonly retry: true; readonly delayMs: number }
  | { readonly retry: false; readonly reason: NoRetryReason };

export interface RetryContext {
  readonly method: string;
  /** The attempt that just failed, 1-based. */
  readonly attempt: number;
  /** Milliseconds already slept for this call. */
  readonly sleptMs: number;
  /** A response status, or `undefined` for a transient connection failure. */
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** A number in [0, 1). */
  readonly random: number;
}

export function decideRetry(context: RetryContext, policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryDecision {
  if (context.status !== undefined && !RETRYABLE_STATUSES.has(context.status))
    return { retry: false, reason: 'not-retryable' };
  if (!isIdempotentMethod(context.method)) return { retry: false, reason: 'not-idempotent' };
  if (context.retryAfterMs !== undefined && context.retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, reason: 'retry-after-too-long' };
  }
  if (context.attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts-exhausted' };
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (context.attempt - 1));
  const delayMs = context.retryAfterMs ?? Math.floor(context.random * ceiling);
  if (context.sleptMs + delayMs > policy.budgetMs) return { retry: false, reason: 'budget-exhausted' };
  return { retry: true, delayMs };
}
