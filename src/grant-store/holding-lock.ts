/**
 * A step that must run alone across every instance on the store: the lock is polled for until it
 * is free (a holder that died frees it when its TTL runs out), for at most `waitMs`, and released
 * after the step whatever its outcome. The step gets the fence, for its fenced writes.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { LockOptions } from './fencing.js';
import type { GrantStore } from './grant-store.js';
import { storeLockTimeout } from './store-errors.js';

export interface HoldingLockOptions extends LockOptions {
  /** How long to wait for the lock before failing with STORE_LOCK_TIMEOUT. */
  readonly waitMs: number;
  /** How often to try again while it is held. */
  readonly pollMs: number;
}

export async function holdingLock<T>(store: GrantStore, namespace: string, name: string, options: HoldingLockOptions, step: (fence: number) => Promise<T>): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const lock = await store.lock(namespace, name, { ttlMs: options.ttlMs });
    if (lock !== undefined) {
      try {
        return await step(lock.fence);
      } finally {
        // A release that fails leaves the lock to run out with its TTL.
        await lock.release().catch(() => undefined);
      }
    }
    if (Date.now() >= deadline) throw storeLockTimeout(`a ${namespace} record`, options.waitMs);
    await delay(options.pollMs);
  }
}
