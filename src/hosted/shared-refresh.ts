/**
 * One school refresh per rotation, across every instance on the store. The school rotates the
 * refresh token on each use and revokes the whole grant when a rotated-out one comes back
 * (RFC 9700 §4.14.2), so two instances refreshing one person's grant at once would end it. The
 * refresher takes the store's lock on that grant, reads the grant again (another instance may have
 * rotated it meanwhile: then that result is used and nothing is sent), refreshes at the school,
 * saves the result with the lock's fence, and releases. A caller that finds the lock held polls
 * the grant until the holder's result is there, for a bounded time; if the holder died, its lock
 * runs out and the next caller takes over. No request presents a refresh token that a saved
 * refresh already rotated out.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { SchoolMcpError } from '../errors.js';
import type { GrantStore } from '../grant-store/index.js';
import { SCHOOL_GRANTS, type SchoolGrant, type SchoolSignIn } from './school-sign-in.js';

/** Above the school's request limit (15 s), so a live holder's lock does not run out mid-refresh. */
const DEFAULT_LOCK_TTL_MS = 30_000;
/** Above the lock's TTL, so a caller outlasts a holder that died and takes over from it. */
const DEFAULT_WAIT_MS = 35_000;
const DEFAULT_POLL_MS = 50;

export interface SharedRefreshOptions {
  readonly store: GrantStore;
  readonly signIn: Pick<SchoolSignIn, 'refresh'>;
  readonly lockTtlMs?: number;
  /** How long a caller waits for another instance's refresh before it gives up with OAUTH_LOCK_TIMEOUT. */
  readonly waitMs?: number;
  /** How often a waiting caller reads the grant. */
  readonly pollMs?: number;
}

/** Pure: whether the grant in the store is no longer the one a caller found stale (someone refreshed it). */
export function rotatedSince(stale: SchoolGrant, current: SchoolGrant): boolean {
  return current.accessToken !== stale.accessToken || current.refreshToken !== stale.refreshToken;
}

export function signInRequired(): SchoolMcpError {
  return new SchoolMcpError('OAUTH_SIGN_IN_REQUIRED', 'This connection is no longer signed in at the school.', {
    hint: 'Ask the user to connect the application to school-mcp again; they sign in at the school once more.',
  });
}

function refreshStillRunning(waitMs: number): SchoolMcpError {
  return new SchoolMcpError('OAUTH_LOCK_TIMEOUT', `Another school-mcp instance has been refreshing this person's school sign-in for over ${Math.round(waitMs / 1000)} s.`, {
    hint: 'Retry the call shortly: the refresh finishes, or its lock runs out and the next call takes over.',
  });
}

/** The refresh of `stale`, done here or by whichever instance got to it first; its result either way. */
export function createSharedRefresh(options: SharedRefreshOptions): (stale: SchoolGrant) => Promise<SchoolGrant> {
  const { store, signIn } = options;
  const lockTtlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;

  const saved = async (sub: string): Promise<SchoolGrant> => {
    const grant = (await store.read(SCHOOL_GRANTS, sub)) as SchoolGrant | undefined;
    if (grant === undefined) throw signInRequired();
    return grant;
  };

  const refreshHolding = async (stale: SchoolGrant, fence: number): Promise<SchoolGrant> => {
    const current = await saved(stale.sub);
    if (rotatedSince(stale, current)) return current;
    let next: SchoolGrant;
    try {
      next = await signIn.refresh(current);
    } catch {
      // A refused refresh token is over: the next call asks for a new sign-in rather than retrying it.
      await store.remove(SCHOOL_GRANTS, stale.sub);
      throw signInRequired();
    }
    // Never brings back a grant that a sign-out removed while the school answered.
    if (await store.writeFenced(SCHOOL_GRANTS, stale.sub, next as unknown as Record<string, unknown>, fence, { replaceOnly: true })) return next;
    // Signed out meanwhile, or this lock ran out while the school answered and a later holder saved since.
    return saved(stale.sub);
  };

  return async (stale) => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lock = await store.lock(SCHOOL_GRANTS, stale.sub, { ttlMs: lockTtlMs });
      if (lock !== undefined) {
        try {
          return await refreshHolding(stale, lock.fence);
        } finally {
          // A release that fails leaves the lock to run out; the result is saved already.
          await lock.release().catch(() => undefined);
        }
      }
      const current = await saved(stale.sub);
      if (rotatedSince(stale, current)) return current;
      if (Date.now() >= deadline) throw refreshStillRunning(waitMs);
      await delay(pollMs);
    }
  };
}
