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
 *
 * Only a school that ended the grant removes it (and ends the person's MCP grants, as a sign-out
 * does); a refresh that failed otherwise (the school did
 * not answer) leaves it for the next call. Once the school has rotated the refresh token, the new
 * one exists only in this process until it is saved: if the store is away then, the result still
 * answers the call, and saving is tried again while the lock holds, so that no instance presents
 * the rotated-out token the store still has.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { SchoolMcpError } from '../errors.js';
import { isStoreUnavailable, readRecord, releaseLock, type GrantStore } from '../grant-store/index.js';
import { isOAuthError } from '../oauth/index.js';
import { endGeneration } from './person-generation.js';
import { SCHOOL_GRANT_RECORD, SCHOOL_GRANTS, type SchoolGrant, type SchoolSignIn } from './school-sign-in.js';

/** Above the school's request limit (15 s), so a live holder's lock does not run out mid-refresh. */
const DEFAULT_LOCK_TTL_MS = 30_000;
/**
 * The school's request limit: a live holder finishes within it. A caller does not wait out a dead
 * holder's whole TTL inside a tool call; it is told to retry, and a later call takes over.
 */
const DEFAULT_WAIT_MS = 15_000;
const DEFAULT_POLL_MS = 50;
/** Between two tries to save a rotated grant while the store is away. */
const DEFAULT_SAVE_RETRY_MS = 250;
/** Saving stops this long before the lock runs out: after that another instance may take over. */
const SAVE_MARGIN_MS = 2_000;

export interface SharedRefreshOptions {
  readonly store: GrantStore;
  readonly signIn: Pick<SchoolSignIn, 'refresh'>;
  readonly lockTtlMs?: number;
  /** How long a caller waits for another instance's refresh before it gives up with OAUTH_LOCK_TIMEOUT. */
  readonly waitMs?: number;
  /** How often a waiting caller reads the grant. */
  readonly pollMs?: number;
  /** How often a rotated grant is saved again while the store does not answer. */
  readonly saveRetryMs?: number;
}

/** A refresh's result, and, when it could not be saved at once, the saving still going on under the lock. */
interface HeldRefresh {
  readonly grant: SchoolGrant;
  readonly saving?: Promise<void>;
}

/** Pure: whether the grant in the store is no longer the one a caller found stale (someone refreshed it). */
export function rotatedSince(stale: SchoolGrant, current: SchoolGrant): boolean {
  return current.accessToken !== stale.accessToken || current.refreshToken !== stale.refreshToken;
}

/** In hosted mode only connecting again makes a new school grant: no tool call starts a sign-in. */
export const RECONNECT_ADVICE =
  'Ask the user to connect the application to school-mcp again; they sign in at the school once more.';

/**
 * The local code: nothing usable is stored and no tool call may start a sign-in, so the user signs
 * in again; only how (connecting again) is hosted mode's, and the hint says it.
 */
export function signInRequired(): SchoolMcpError {
  return new SchoolMcpError('OAUTH_SIGN_IN_REQUIRED', 'This connection is no longer signed in at the school.', {
    hint: RECONNECT_ADVICE,
  });
}

/** The local code for another process busy with the same sign-in: either way, retrying shortly is the answer. */
function refreshStillRunning(waitMs: number): SchoolMcpError {
  return new SchoolMcpError(
    'OAUTH_LOCK_TIMEOUT',
    `Another school-mcp instance has been refreshing this person's school sign-in for over ${Math.round(waitMs / 1000)} s.`,
    {
      hint: 'Retry the call shortly: the refresh finishes, or its lock runs out and the next call takes over.',
    },
  );
}

export interface RefreshRequest {
  /**
   * False when the caller's access token still works: a lock held by another instance then
   * answers the stored grant at once instead of waiting for the holder, so a holder that died
   * stalls no call until the token has actually expired.
   */
  readonly waitForHolder: boolean;
}

/**
 * The refresh of `stale`, done here or by whichever instance got to it first; its result either
 * way, or, when another instance holds the lock and the caller need not wait, the stored grant.
 */
export function createSharedRefresh(
  options: SharedRefreshOptions,
): (stale: SchoolGrant, request?: RefreshRequest) => Promise<SchoolGrant> {
  const { store, signIn } = options;
  const lockTtlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const saveRetryMs = options.saveRetryMs ?? DEFAULT_SAVE_RETRY_MS;

  const saved = async (sub: string): Promise<SchoolGrant> => {
    const grant = await readRecord(store, SCHOOL_GRANT_RECORD, sub);
    if (grant === undefined) throw signInRequired();
    return grant;
  };

  const refreshHolding = async (stale: SchoolGrant, fence: number, lockedUntil: number): Promise<HeldRefresh> => {
    const current = await saved(stale.sub);
    if (rotatedSince(stale, current)) return { grant: current };
    let next: SchoolGrant;
    try {
      next = await signIn.refresh(current);
    } catch (error) {
      if (!isOAuthError(error, 'OAUTH_SIGN_IN_REQUIRED')) throw error;
      // The school ended the grant: the next call asks for a new sign-in rather than trying it again,
      // and, as after a sign-out, every client of this person gets 401 and signs in again (HOST-33).
      await store.remove(SCHOOL_GRANTS, stale.sub);
      await endGeneration(store, stale.sub);
      throw signInRequired();
    }
    // Never brings back a grant that a sign-out removed while the school answered.
    const save = () => store.writeFenced(SCHOOL_GRANTS, stale.sub, { ...next }, fence, { replaceOnly: true });
    try {
      if (await save()) return { grant: next };
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      return { grant: next, saving: keepSaving(save, lockedUntil - SAVE_MARGIN_MS) };
    }
    // Signed out meanwhile, or this lock ran out while the school answered and a later holder saved since.
    return { grant: await saved(stale.sub) };
  };

  const keepSaving = async (save: () => Promise<boolean>, until: number): Promise<void> => {
    while (Date.now() < until) {
      await delay(saveRetryMs);
      try {
        await save();
        return;
      } catch (error) {
        if (!isStoreUnavailable(error)) return;
      }
    }
  };

  return async (stale, request = { waitForHolder: true }) => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lockedUntil = Date.now() + lockTtlMs;
      const lock = await store.lock(SCHOOL_GRANTS, stale.sub, { ttlMs: lockTtlMs });
      if (lock !== undefined) {
        const release = () => releaseLock(lock, lockedUntil);
        let held: HeldRefresh;
        try {
          held = await refreshHolding(stale, lock.fence, lockedUntil);
        } catch (error) {
          await release();
          throw error;
        }
        // Others keep waiting for the saved grant while this one is still being saved.
        if (held.saving === undefined) await release();
        // finally() waits for the promise release() returns (ECMA-262 27.2.5.3); lib.d.ts types it as void.
        // oxlint-disable-next-line typescript/no-misused-promises
        else void held.saving.finally(release);
        return held.grant;
      }
      const current = await saved(stale.sub);
      if (rotatedSince(stale, current) || !request.waitForHolder) return current;
      if (Date.now() >= deadline) throw refreshStillRunning(waitMs);
      await delay(pollMs);
    }
  };
}
