import { describe, expect, it } from 'vitest';
import { healthAnswer, probeKindOf, readinessOf, readyAnswer } from '../../src/hosted/health-check.js';
import { createStoreReadiness, verdictStillFresh } from '../../src/hosted/store-readiness.js';

describe('the health and readiness answers', () => {
  it('SCL-01 names the probes by their root paths only, whatever the query, and nothing under another path', () => {
    expect(probeKindOf('/healthz')).toBe('health');
    expect(probeKindOf('/readyz?full=1')).toBe('ready');
    for (const other of ['/base/healthz', '/healthz/', '/readyzz', '/', '/mcp', undefined])
      expect(probeKindOf(other)).toBeUndefined();
  });

  it('SCL-01 says ok to /healthz and one word to /readyz: ready with 200, draining or store_unavailable with 503, and nothing else', () => {
    expect(healthAnswer('GET')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(healthAnswer('HEAD')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(readyAnswer('GET', 'ready')).toEqual({ status: 200, body: { status: 'ready' } });
    expect(readyAnswer('GET', 'draining')).toEqual({ status: 503, body: { status: 'draining' } });
    expect(readyAnswer('GET', 'store_unavailable')).toEqual({ status: 503, body: { status: 'store_unavailable' } });
    expect(healthAnswer('POST').status).toBe(405);
    expect(readyAnswer('DELETE', 'ready').status).toBe(405);
  });

  it('SCL-04 puts draining before the store, so a stopping instance is taken out whatever its store says', () => {
    expect(readinessOf({ draining: true, storeAnswers: true })).toBe('draining');
    expect(readinessOf({ draining: true, storeAnswers: false })).toBe('draining');
    expect(readinessOf({ draining: false, storeAnswers: false })).toBe('store_unavailable');
    expect(readinessOf({ draining: false, storeAnswers: true })).toBe('ready');
  });
});

describe('the store readiness check', () => {
  it('keeps a verdict for the cache period only, and never one from the future', () => {
    expect(verdictStillFresh(undefined, 1000, 1000)).toBe(false);
    expect(verdictStillFresh(1000, 1999, 1000)).toBe(true);
    expect(verdictStillFresh(1000, 2000, 1000)).toBe(false);
    expect(verdictStillFresh(2000, 1000, 1000)).toBe(false);
  });

  it('SCL-01 pings the store once per cache period however many checks arrive, shares a ping in progress, and sees a change after the period', async () => {
    const clock = { now: 10_000 };
    let pings = 0;
    let answering = true;
    let release: (() => void) | undefined;
    const ping = () => {
      pings += 1;
      if (!answering) return Promise.reject(new Error('down'));
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const storeAnswers = createStoreReadiness({ ping, cacheMs: 1000, now: () => clock.now });
    const storm = Array.from({ length: 50 }, () => storeAnswers());
    release!();
    expect(await Promise.all(storm)).toEqual(Array(50).fill(true));
    expect(pings).toBe(1);
    answering = false;
    clock.now += 999;
    expect(await storeAnswers()).toBe(true);
    expect(pings).toBe(1);
    clock.now += 1;
    expect(await storeAnswers()).toBe(false);
    expect(await storeAnswers()).toBe(false);
    expect(pings).toBe(2);
  });
});
