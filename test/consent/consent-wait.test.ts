/**
 * How long a call holds while the user approves, on fake timers: never longer than the
 * configured wait over all its consent rounds and whatever channel it uses, progress no more
 * often than every 5 s, and a pending answer with the link and the scopes in words at the end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONSENT_WAIT_MS } from '../../src/config/index.js';
import { createConsentCaller, type ConsentOutcome, type PendingConsent } from '../../src/consent/index.js';
import { createCoupon } from '../executor/operation-fixtures.js';
import {
  CALL,
  CONSENT,
  connection,
  context,
  PENDING_ERROR,
  scriptedBroker,
  scriptedExecutor,
} from './support/consent-fixtures.js';
import { PROGRESS_INTERVAL_MS } from '../../src/consent/consent-wait.js';

const DESCRIPTIONS = { 'coupons:write': 'Write access to coupons' };
const textOf = (result: unknown) => JSON.stringify(result);

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Settles when the promise does, so a test can ask whether it has. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T } = { settled: false };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

describe('the consent wait', () => {
  it('holds a call at most the default 45 s, with progress at most every 5 s, then answers pending with the link and the scopes in words', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: DESCRIPTIONS,
      schoolName: 'school.example',
      waitMs: DEFAULT_CONSENT_WAIT_MS,
    });
    const { ctx, noticedAt } = context({ progressToken: 'p1' as unknown as number });
    const started = Date.now();
    const answer = track(call(createCoupon, {}, ctx, connection('sessionful', false)));

    await vi.advanceTimersByTimeAsync(DEFAULT_CONSENT_WAIT_MS - 1);
    expect(answer.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer.settled).toBe(true);

    expect(PROGRESS_INTERVAL_MS).toBe(5_000);
    expect(noticedAt.length).toBeGreaterThanOrEqual(8);
    // One notice as the wait begins, so the host can say at once what the call waits for; then at
    // most one every interval.
    expect(noticedAt.length).toBeLessThanOrEqual(DEFAULT_CONSENT_WAIT_MS / PROGRESS_INTERVAL_MS + 1);
    expect(noticedAt[0]).toBe(started);
    const gaps = noticedAt.slice(1).map((at, index) => at - noticedAt[index]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS);

    const text = textOf(answer.value);
    expect(text).toContain(CONSENT.url);
    expect(text).toContain('coupons:write (Write access to coupons)');
    expect(text).toContain('still pending');
  });

  it('sends no progress when the client sent no progress token', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 20_000,
    });
    const { ctx, notices } = context();
    const answer = track(call(createCoupon, {}, ctx, connection('sessionful', false)));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(answer.settled).toBe(true);
    expect(notices).toEqual([]);
  });

  it('counts every consent round of one call against the same wait', async () => {
    const second: PendingConsent = { ...CONSENT, url: `${CONSENT.url}-2` };
    const executor = scriptedExecutor([
      { kind: 'error', call: CALL, error: PENDING_ERROR },
      { kind: 'error', call: CALL, error: PENDING_ERROR },
    ]);
    let finishFirst: (outcome: ConsentOutcome) => void = () => undefined;
    const first = new Promise<ConsentOutcome>((resolve) => (finishFirst = resolve));
    let round = 0;
    const { broker } = scriptedBroker({
      pendingOf: () => (round++ === 0 ? CONSENT : second),
      outcome: (consent) => (consent.url === CONSENT.url ? first : new Promise<ConsentOutcome>(() => undefined)),
    });
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 45_000,
    });
    const answer = track(call(createCoupon, {}, context().ctx, connection('sessionful', false)));

    await vi.advanceTimersByTimeAsync(30_000);
    finishFirst({ kind: 'granted' });
    await vi.advanceTimersByTimeAsync(15_000 - 1);
    expect(answer.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer.settled).toBe(true);
    expect(textOf(answer.value)).toContain(second.url);
  });

  it('bounds a URL elicitation the client leaves unanswered by the same wait', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 45_000,
    });
    const timeouts: (number | undefined)[] = [];
    const { ctx } = context({
      elicit: ({ timeout }) => {
        timeouts.push(timeout);
        return new Promise((_, reject) => setTimeout(() => reject(new Error('Request timed out')), timeout));
      },
    });
    const answer = track(call(createCoupon, {}, ctx, connection('sessionful', true)));
    await vi.advanceTimersByTimeAsync(45_000);
    expect(answer.settled).toBe(true);
    expect(timeouts).toEqual([45_000]);
    expect(textOf(answer.value)).toContain(CONSENT.url);
  });

  it('keeps the re-check of a link shown before within a short --consent-wait', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 500,
      linkWaitMs: 0,
    });
    const shown = track(call(createCoupon, {}, context().ctx, connection('sessionful', false)));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.settled).toBe(true);
    const again = track(call(createCoupon, {}, context().ctx, connection('sessionful', false)));
    await vi.advanceTimersByTimeAsync(499);
    expect(again.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(again.settled).toBe(true);
    expect(textOf(again.value)).toContain(CONSENT.url);
  });

  it('answers a waiting call at once when the process is going away, without promising a continuation', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const leaving = new AbortController();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 45_000,
      leaving: leaving.signal,
      loginCommand: 'school-mcp login --school https://school.example',
    });
    const answer = track(call(createCoupon, {}, context().ctx, connection('sessionful', false)));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answer.settled).toBe(false);
    leaving.abort('input-closed');
    await vi.advanceTimersByTimeAsync(0);
    expect(answer.settled).toBe(true);
    const text = textOf(answer.value);
    expect(text).toContain('the host closed its connection');
    expect(text).toContain('school-mcp login --school https://school.example --scopes');
    expect(text).not.toContain('it continues');

    const later = await call(createCoupon, {}, context().ctx, connection('sessionful', false));
    expect(textOf(later)).toContain('shutting down');
  });
});
