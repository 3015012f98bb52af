import { describe, expect, it } from 'vitest';
import { decideRetry, DEFAULT_RETRY_POLICY, type RetryContext } from '../../src/executor/retry-policy.js';

describe('NET-04 retry decisions', () => {
  const context = (fields: Partial<RetryContext>): RetryContext => ({
    method: 'GET',
    attempt: 1,
    sleptMs: 0,
    status: 503,
    retryAfterMs: undefined,
    random: 0.5,
    ...fields,
  });

  it.each([[429], [502], [503], [504]])('retries %i on an idempotent method', (status) => {
    expect(decideRetry(context({ status })).retry).toBe(true);
  });

  it.each([[400], [401], [403], [404], [409], [422], [500]])('never retries %i', (status) => {
    expect(decideRetry(context({ status }))).toEqual({ retry: false, reason: 'not-retryable' });
  });

  it.each([['GET'], ['HEAD'], ['PUT'], ['DELETE'], ['OPTIONS']])('retries connection failures on %s', (method) => {
    expect(decideRetry(context({ method, status: undefined })).retry).toBe(true);
  });

  it.each([['POST'], ['PATCH']])('does not retry %s', (method) => {
    expect(decideRetry(context({ method }))).toEqual({ retry: false, reason: 'not-idempotent' });
    expect(decideRetry(context({ method, status: undefined }))).toEqual({ retry: false, reason: 'not-idempotent' });
  });

  it('waits exactly Retry-After when it is within the cap', () => {
    expect(decideRetry(context({ status: 429, retryAfterMs: 2_000 }))).toEqual({ retry: true, delayMs: 2_000 });
  });

  it('does not wait for a Retry-After beyond the cap', () => {
    expect(decideRetry(context({ status: 429, retryAfterMs: 86_400_000 }))).toEqual({
      retry: false,
      reason: 'retry-after-too-long',
    });
  });

  it('uses full-jitter backoff without Retry-After, doubling the ceiling per retry', () => {
    expect(decideRetry(context({ attempt: 1, random: 0.999 }))).toEqual({ retry: true, delayMs: 499 });
    expect(decideRetry(context({ attempt: 2, random: 0.999 }))).toEqual({ retry: true, delayMs: 999 });
    expect(decideRetry(context({ attempt: 1, random: 0 }))).toEqual({ retry: true, delayMs: 0 });
  });

  it('stops after the maximum attempts and within the sleep budget', () => {
    expect(decideRetry(context({ attempt: DEFAULT_RETRY_POLICY.maxAttempts }))).toEqual({
      retry: false,
      reason: 'attempts-exhausted',
    });
    expect(decideRetry(context({ sleptMs: 29_000, retryAfterMs: 2_000 }))).toEqual({
      retry: false,
      reason: 'budget-exhausted',
    });
  });
});
