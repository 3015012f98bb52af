/**
 * A lock released while the store is away: the release is tried again until the store answers,
 * within the lock's own lifetime, so that a restarted store does not keep others waiting out the
 * whole TTL; any other failure is left to the TTL.
 */
import { describe, expect, it, vi } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import { releaseLock } from '../../src/grant-store/index.js';

const RETRY_MS = 5;
const unavailable = () =>
  new SchoolMcpError('STORE_UNAVAILABLE', 'The Redis grant store could not release a lock (The client is closed).');

describe('releaseLock', () => {
  it('SCL-17 tries a release again while the store does not answer, until it is done', async () => {
    let failures = 2;
    const release = vi.fn(async () => {
      if (failures-- > 0) throw unavailable();
    });
    await releaseLock({ fence: 1, release }, Date.now() + 60_000, RETRY_MS);
    await vi.waitFor(() => expect(release).toHaveBeenCalledTimes(3), { timeout: 5_000, interval: 5 });
  });

  it('SCL-17 stops trying once the lock would have run out, and never retries another failure', async () => {
    const away = vi.fn(async () => Promise.reject(unavailable()));
    await releaseLock({ fence: 1, release: away }, Date.now(), RETRY_MS);
    const refused = vi.fn(async () => Promise.reject(new Error('the script answered nonsense')));
    await releaseLock({ fence: 2, release: refused }, Date.now() + 60_000, RETRY_MS);
    // Ten retry intervals: a retry, had one been scheduled, would have come by now.
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 10));
    expect(away).toHaveBeenCalledTimes(1);
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
