/**
 * A step that must run alone across every instance on the store: the lock is polled for until it
 * is free (a holder that died frees it when its TTL runs out), for at most `waitMs`, and released
 * after the step whatever its outcome. The step gets the fence, for its fenced writes.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { LockOptions, StoreLock } from './fencing.js';
import type { GrantStore } from './grant-store.js';
import { isStoreUnavailable, storeLockTimeout } from './store-errors.js';

/** Between two tries to release a lock while the store does not answer. */
const RELEASE_RETRY_MS = 250;

/**
 * Releases the lock. When the store does not answer, tries again in the background until the
 * lock would have run out anyway: a persistent store keeps the lock across its restart, and
 * whoever waits for it should not wait out the whole TTL because of an outage.
 */
export async function releaseLock(lock: StoreLock, lockedUntil: number, retryMs = RELEASE_RETRY_MS): Promise<void> {
  try {
    await lock.release();
  } catch (error) {
    if (!isStoreUnavailable(error)) return;
    void (async () => {
      while (Date.now() + retryMs < lockedUntil) {
        await delay(retryMs);
        try {
          await lock.release();
          return;
        } catch (again) {
          if (!isStoreUnavailable(again)) return;
        }
      }
    })();
  }
}

export interface HoldingLockOptions extends LockOptions {
  /** How long to wait for the lock before failing with STORE_LOCK_TIMEOUT. */
  readonly waitMs: number;
  /** How often to try again while it is held. */
  readonly pollMs: number;
}

export async function holdingLock<T>(
  store: GrantStore,
  namespace: string,
  name: string,
  options: HoldingLockOptions,
  step: (fence: number) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const lockedUntil = Date.now() + options.ttlMs;
    const lock = await store.lock(namespace, name, { ttlMs: options.ttlMs });
    if (lock !== undefined) {
      try {
        return await step(lock.fence);
      } finally {
        await releaseLock(lock, lockedUntil);
      }
    }
    if (Date.now() >= deadline) throw storeLockTimeout(`a ${namespace} record`, options.waitMs);
    await delay(options.pollMs);
  }
}
