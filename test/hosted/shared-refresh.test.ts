/**
 * The shared refresh against a real directory store (two store objects on one directory stand for
 * two instances) and a school that counts what it is asked: who refreshes, who waits, who takes
 * over from a holder that died, and who gives up.
 */
import { describe, expect, it, vi } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import type { GrantStore } from '../../src/grant-store/index.js';
import { generationOf } from '../../src/hosted/person-generation.js';
import { SCHOOL_GRANTS, type SchoolGrant } from '../../src/hosted/school-sign-in.js';
import { createSharedRefresh, rotatedSince } from '../../src/hosted/shared-refresh.js';
import { OAuthError } from '../../src/oauth/index.js';
import { storePairs } from './store-pair.js';

/** Two instances on one shared store. */
const twoInstances = storePairs();

const SUB = 'usr_lecturer_grace';
const stale: SchoolGrant = {
  sub: SUB,
  accessToken: 'at-0',
  refreshToken: 'rt-0',
  scopes: ['courses:read'],
  expiresAt: 1,
};

/** A school that rotates on each refresh and records which refresh tokens it was given. */
function countingSchool() {
  const presented: string[] = [];
  return {
    presented,
    refresh: vi.fn(async (grant: SchoolGrant): Promise<SchoolGrant> => {
      presented.push(grant.refreshToken!);
      const n = presented.length;
      return { ...grant, accessToken: `at-${n}`, refreshToken: `rt-${n}`, expiresAt: 4_000_000_000 };
    }),
  };
}

async function saved(store: GrantStore): Promise<SchoolGrant | undefined> {
  return (await store.read(SCHOOL_GRANTS, SUB)) as SchoolGrant | undefined;
}

describe('one school refresh per rotation across instances', () => {
  it('SCL-12 tells a rotated grant from the stale one by either token', () => {
    expect(rotatedSince(stale, stale)).toBe(false);
    expect(rotatedSince(stale, { ...stale, accessToken: 'at-1' })).toBe(true);
    expect(rotatedSince(stale, { ...stale, refreshToken: 'rt-1' })).toBe(true);
  });

  it('SCL-12 refreshes under the lock, saves the result fenced, releases, and a second caller with the same stale grant reads it without refreshing', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const school = countingSchool();
    const first = await createSharedRefresh({ store: a, signIn: school })(stale);
    expect(first).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
    expect(await saved(b)).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
    const second = await createSharedRefresh({ store: b, signIn: school })(stale);
    expect(second).toMatchObject({ accessToken: 'at-1' });
    expect(school.presented).toEqual(['rt-0']);
    // Released: the next lock is free at once.
    expect(await b.lock(SCHOOL_GRANTS, SUB, { ttlMs: 1000 })).toBeDefined();
  });

  it("SCL-12 waits while another instance holds the lock and takes that instance's result, sending nothing to the school", async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const held = await a.lock(SCHOOL_GRANTS, SUB, { ttlMs: 60_000 });
    const school = countingSchool();
    const waiting = createSharedRefresh({ store: b, signIn: school, waitMs: 30_000, pollMs: 10 })(stale);
    const winner: SchoolGrant = {
      ...stale,
      accessToken: 'at-winner',
      refreshToken: 'rt-winner',
      expiresAt: 4_000_000_000,
    };
    expect(await a.writeFenced(SCHOOL_GRANTS, SUB, winner as unknown as Record<string, unknown>, held!.fence)).toBe(
      true,
    );
    expect(await waiting).toMatchObject({ accessToken: 'at-winner' });
    await held!.release();
    expect(school.refresh).not.toHaveBeenCalled();
  });

  it('SCL-13 takes over from a holder that died once its lock runs out, and refreshes once', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const died = await a.lock(SCHOOL_GRANTS, SUB, { ttlMs: 300 });
    expect(died).toBeDefined();
    const school = countingSchool();
    const result = await createSharedRefresh({ store: b, signIn: school, waitMs: 30_000, pollMs: 10 })(stale);
    expect(result).toMatchObject({ accessToken: 'at-1' });
    expect(school.presented).toEqual(['rt-0']);
  });

  it('SCL-13 gives up with OAUTH_LOCK_TIMEOUT, presenting nothing, when the holder neither finishes nor lets its lock run out within the wait', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const held = await a.lock(SCHOOL_GRANTS, SUB, { ttlMs: 60_000 });
    const school = countingSchool();
    await expect(
      createSharedRefresh({ store: b, signIn: school, waitMs: 200, pollMs: 10 })(stale),
    ).rejects.toMatchObject({ code: 'OAUTH_LOCK_TIMEOUT' });
    expect(school.refresh).not.toHaveBeenCalled();
    expect(await saved(a)).toMatchObject({ refreshToken: 'rt-0' });
    await held!.release();
  });

  it('SCL-13 answers the stored grant at once, presenting nothing, to a caller that need not wait for the holder', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const held = await a.lock(SCHOOL_GRANTS, SUB, { ttlMs: 60_000 });
    const school = countingSchool();
    const refresh = createSharedRefresh({ store: b, signIn: school, waitMs: 30_000, pollMs: 10 });
    expect(await refresh(stale, { waitForHolder: false })).toMatchObject({ accessToken: 'at-0', refreshToken: 'rt-0' });
    expect(school.refresh).not.toHaveBeenCalled();
    await held!.release();
  });

  it("SCL-11 keeps the grant a later holder saved when this holder's lock ran out while the school answered", async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const later: SchoolGrant = {
      ...stale,
      accessToken: 'at-later',
      refreshToken: 'rt-later',
      expiresAt: 4_000_000_000,
    };
    const slowSchool = {
      refresh: async (grant: SchoolGrant): Promise<SchoolGrant> => {
        // While the school is slow, the lock runs out and another instance takes it and saves.
        let lock: Awaited<ReturnType<GrantStore['lock']>>;
        await vi.waitFor(
          async () => {
            lock = await b.lock(SCHOOL_GRANTS, SUB, { ttlMs: 60_000 });
            expect(lock).toBeDefined();
          },
          { timeout: 10_000, interval: 10 },
        );
        expect(await b.writeFenced(SCHOOL_GRANTS, SUB, later as unknown as Record<string, unknown>, lock!.fence)).toBe(
          true,
        );
        await lock!.release();
        return { ...grant, accessToken: 'at-late', refreshToken: 'rt-late' };
      },
    };
    const result = await createSharedRefresh({ store: a, signIn: slowSchool, lockTtlMs: 200 })(stale);
    expect(result).toMatchObject({ accessToken: 'at-later' });
    expect(await saved(a)).toMatchObject({ accessToken: 'at-later', refreshToken: 'rt-later' });
  });

  it('SCL-12 never brings back a grant that a sign-out removed while the school answered, and asks for a new sign-in', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const signOutMeanwhile = {
      refresh: async (grant: SchoolGrant): Promise<SchoolGrant> => {
        await b.take(SCHOOL_GRANTS, SUB);
        return { ...grant, accessToken: 'at-after-sign-out', refreshToken: 'rt-after-sign-out' };
      },
    };
    await expect(createSharedRefresh({ store: a, signIn: signOutMeanwhile })(stale)).rejects.toMatchObject({
      code: 'OAUTH_SIGN_IN_REQUIRED',
    });
    expect(await saved(b)).toBeUndefined();
  });
});

describe('a refresh that fails, or cannot be saved at once', () => {
  it('SCL-15 keeps the grant when the school could not be reached, and removes it only when the school ended it', async () => {
    const [a] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const unreachable = {
      refresh: vi.fn(async () =>
        Promise.reject(
          new OAuthError('OAUTH_NETWORK', 'The school did not answer in time while refreshing the access token.', {
            hint: 'Try again.',
          }),
        ),
      ),
    };
    await expect(createSharedRefresh({ store: a, signIn: unreachable })(stale)).rejects.toMatchObject({
      code: 'OAUTH_NETWORK',
    });
    expect(await saved(a)).toMatchObject({ refreshToken: 'rt-0' });
    // The lock was released: the next call may try again at once.
    expect(await a.lock(SCHOOL_GRANTS, SUB, { ttlMs: 1000 }).then((lock) => lock?.release().then(() => true))).toBe(
      true,
    );

    const ended = {
      refresh: vi.fn(async () =>
        Promise.reject(
          new OAuthError('OAUTH_SIGN_IN_REQUIRED', "This person's school sign-in is over.", { hint: 'Sign in again.' }),
        ),
      ),
    };
    await expect(createSharedRefresh({ store: a, signIn: ended })(stale)).rejects.toMatchObject({
      code: 'OAUTH_SIGN_IN_REQUIRED',
    });
    expect(await saved(a)).toBeUndefined();
  });

  it("HOST-33 ends the person's sign-in generation when the school ended the grant, and only then", async () => {
    const [a] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    const before = await generationOf(a, SUB);
    const unreachable = {
      refresh: vi.fn(async () =>
        Promise.reject(new OAuthError('OAUTH_NETWORK', 'The school did not answer in time.', { hint: 'Try again.' })),
      ),
    };
    await expect(createSharedRefresh({ store: a, signIn: unreachable })(stale)).rejects.toMatchObject({
      code: 'OAUTH_NETWORK',
    });
    expect(await generationOf(a, SUB)).toBe(before);
    const ended = {
      refresh: vi.fn(async () =>
        Promise.reject(
          new OAuthError('OAUTH_SIGN_IN_REQUIRED', "This person's school sign-in is over.", { hint: 'Sign in again.' }),
        ),
      ),
    };
    await expect(createSharedRefresh({ store: a, signIn: ended })(stale)).rejects.toMatchObject({
      code: 'OAUTH_SIGN_IN_REQUIRED',
    });
    expect(await generationOf(a, SUB)).not.toBe(before);
  });

  it('SCL-16 answers with the rotated grant while the store is away, keeps the lock, and saves the grant once the store is back', async () => {
    const [a, b] = await twoInstances();
    await a.write(SCHOOL_GRANTS, SUB, stale as unknown as Record<string, unknown>);
    let storeAway = true;
    const flaky: GrantStore = {
      ...a,
      read: a.read.bind(a),
      lock: a.lock.bind(a),
      writeFenced: async (...args) => {
        if (storeAway) throw new SchoolMcpError('STORE_UNAVAILABLE', 'The Redis grant store could not save a record.');
        return a.writeFenced(...args);
      },
    };
    const school = countingSchool();
    const answered = await createSharedRefresh({ store: flaky, signIn: school, saveRetryMs: 10 })(stale);
    expect(answered).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
    // Not saved yet, and the lock still held: another instance waits instead of presenting rt-0.
    expect(await saved(b)).toMatchObject({ refreshToken: 'rt-0' });
    expect(await b.lock(SCHOOL_GRANTS, SUB, { ttlMs: 1000 })).toBeUndefined();
    storeAway = false;
    await vi.waitFor(async () => expect(await saved(b)).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' }), {
      timeout: 10_000,
      interval: 10,
    });
    await vi.waitFor(
      async () => {
        const lock = await b.lock(SCHOOL_GRANTS, SUB, { ttlMs: 1000 });
        expect(lock).toBeDefined();
        await lock!.release();
      },
      { timeout: 10_000, interval: 10 },
    );
    expect(school.presented).toEqual(['rt-0']);
  });
});
