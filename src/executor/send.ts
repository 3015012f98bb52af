/**
 * Sending with retries: transient answers (429, 502, 503, 504) and socket resets are repeated for
 * idempotent methods, after `Retry-After` or a full-jitter backoff. A cancellation ends a wait.
 * @see SECURITY.md NET-04
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import type { PlannedRequest } from './build-request.js';
import type { HttpClient, HttpResponse } from './http-client.js';
import { parseRetryAfter } from '../network/index.js';
import { decideRetry, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { isTransientNetworkError } from './transport-failure.js';

/** Time as the retry loop sees it; tests replace it to run without waiting. */
export interface RetryClock {
  now(): number;
  /** Resolves after `ms`, rejects as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1) for the backoff jitter. */
  random(): number;
}

export const systemClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal === undefined ? {} : { signal }),
  random: () => Math.random(),
};

export interface SendOptions {
  readonly signal?: AbortSignal;
  readonly policy?: RetryPolicy;
  readonly clock?: RetryClock;
  readonly logger?: Logger;
}

export async function sendWithRetries(
  client: HttpClient,
  plannedRequest: PlannedRequest,
  options: SendOptions = {},
): Promise<HttpResponse> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const clock = options.clock ?? systemClock;
  let sleptMs = 0;
  for (let attempt = 1; ; attempt++) {
    let response: HttpResponse;
    try {
      response = await client.send(plannedRequest, options.signal);
    } catch (error) {
      if (!isSchoolMcpError(error) || !isTransientNetworkError(error)) throw error;
      const decision = decideRetry(
        {
          method: plannedRequest.method,
          attempt,
          sleptMs,
          status: undefined,
          retryAfterMs: undefined,
          random: clock.random(),
        },
        policy,
      );
      if (!decision.retry) throw error;
      options.logger?.info('retrying after a connection failure', {
        attempt,
        delayMs: decision.delayMs,
        code: error.code,
      });
      sleptMs += await sleep(clock, decision.delayMs, options.signal);
      continue;
    }
    const decision = decideRetry(
      {
        method: plannedRequest.method,
        attempt,
        sleptMs,
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers['retry-after'], clock.now()),
        random: clock.random(),
      },
      policy,
    );
    if (!decision.retry) return response;
    options.logger?.info('retrying a transient answer', {
      attempt,
      status: response.status,
      delayMs: decision.delayMs,
    });
    sleptMs += await sleep(clock, decision.delayMs, options.signal);
  }
}

async function sleep(clock: RetryClock, ms: number, signal: AbortSignal | undefined): Promise<number> {
  try {
    await clock.sleep(ms, signal);
  } catch (error) {
    throw new SchoolMcpError('API_CANCELLED', 'The call was cancelled while waiting to retry.', { cause: error });
  }
  return ms;
}
