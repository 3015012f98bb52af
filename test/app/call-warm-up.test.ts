/**
 * The warm-up after the tool list: one load, a moment after the first start, none once the server
 * is closing, and a failed load reported rather than thrown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallWarmUp } from '../../src/app/call-warm-up.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the warm-up of the first call', () => {
  it('loads once, a moment after the first start, however often the list is answered', async () => {
    const load = vi.fn(() => Promise.resolve());
    const warmUp = createCallWarmUp(load, () => undefined);
    warmUp.start();
    warmUp.start();
    expect(load).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledTimes(1);
    warmUp.start();
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing once cancelled, before or after its start', async () => {
    const load = vi.fn(() => Promise.resolve());
    const started = createCallWarmUp(load, () => undefined);
    started.start();
    started.cancel();
    const cancelledFirst = createCallWarmUp(load, () => undefined);
    cancelledFirst.cancel();
    cancelledFirst.start();
    await vi.runAllTimersAsync();
    expect(load).not.toHaveBeenCalled();
  });

  it('reports a failed load to onError', async () => {
    const failure = new Error('no undici');
    const onError = vi.fn();
    const warmUp = createCallWarmUp(() => Promise.reject(failure), onError);
    warmUp.start();
    await vi.runAllTimersAsync();
    expect(onError).toHaveBeenCalledWith(failure);
  });
});
