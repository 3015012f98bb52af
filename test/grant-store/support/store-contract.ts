/**
 * What every grant store does with records, checked the same way on each backend.
 */
import { expect, vi } from 'vitest';
import type { GrantStore } from '../../../src/grant-store/index.js';

/** One record per namespace and name, replaced as a whole, removed on request (twice is fine). */
export async function expectRecordsKeptApart(store: GrantStore): Promise<void> {
  await store.write('school-grant', 'usr_owner_ada', { scopes: ['courses:read'] });
  await store.write('school-grant', 'usr_lecturer_grace', { scopes: ['events:read'] });
  await store.write('client', 'usr_owner_ada', { kind: 'a client record under the same name' });
  expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ scopes: ['courses:read'] });
  await store.write('school-grant', 'usr_owner_ada', { scopes: ['courses:read', 'courses:write'] });
  expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ scopes: ['courses:read', 'courses:write'] });
  expect(await store.read('school-grant', 'usr_lecturer_grace')).toEqual({ scopes: ['events:read'] });
  expect(await store.read('client', 'usr_owner_ada')).toEqual({ kind: 'a client record under the same name' });
  await store.remove('school-grant', 'usr_owner_ada');
  await store.remove('school-grant', 'usr_owner_ada');
  expect(await store.read('school-grant', 'usr_owner_ada')).toBeUndefined();
  expect(await store.read('school-grant', 'nobody')).toBeUndefined();
}

/** A lock is one holder's until it is released; the next holder's fence is greater; names are apart. */
export async function expectLockHeldOnce(store: GrantStore, other: GrantStore): Promise<void> {
  const first = await store.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 });
  expect(first?.fence).toBeGreaterThan(0);
  expect(await store.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 })).toBeUndefined();
  expect(await other.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 })).toBeUndefined();
  const elsewhere = await other.lock('school-grant', 'usr_lecturer_grace', { ttlMs: 60_000 });
  const sameNameOtherNamespace = await other.lock('client', 'usr_owner_ada', { ttlMs: 60_000 });
  expect(elsewhere).toBeDefined();
  expect(sameNameOtherNamespace).toBeDefined();
  await first!.release();
  const second = await other.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 });
  expect(second!.fence).toBeGreaterThan(first!.fence);
  // A release after the lock changed hands leaves the new holder's lock alone.
  await first!.release();
  expect(await store.lock('school-grant', 'usr_owner_ada', { ttlMs: 60_000 })).toBeUndefined();
  await Promise.all([second!.release(), elsewhere!.release(), sameNameOtherNamespace!.release()]);
  await expect(store.lock('school-grant', 'usr_owner_ada', { ttlMs: 0 })).rejects.toThrow(RangeError);
}

/** A lock whose holder never releases it runs out with its TTL, and the next fence is still greater. */
export async function expectLockRunsOut(store: GrantStore, other: GrantStore): Promise<void> {
  const abandoned = await store.lock('school-grant', 'usr_abandoned', { ttlMs: 200 });
  expect(abandoned).toBeDefined();
  let next: Awaited<ReturnType<GrantStore['lock']>>;
  await vi.waitFor(
    async () => {
      next = await other.lock('school-grant', 'usr_abandoned', { ttlMs: 60_000 });
      expect(next).toBeDefined();
    },
    { timeout: 10_000, interval: 25 },
  );
  expect(next!.fence).toBeGreaterThan(abandoned!.fence);
  await next!.release();
}

/** Of many racing for one lock, one gets it, round after round, with fences that only grow. */
export async function expectOneWinnerPerRound(stores: readonly GrantStore[]): Promise<void> {
  let lastFence = 0;
  for (let round = 0; round < 8; round += 1) {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        stores[index % stores.length]!.lock('school-grant', 'usr_raced', { ttlMs: 60_000 }),
      ),
    );
    const winners = attempts.filter((lock) => lock !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.fence).toBeGreaterThan(lastFence);
    lastFence = winners[0]!.fence;
    await winners[0]!.release();
  }
}

/** A fenced write lands unless a greater fence already wrote; a plain write starts fencing afresh. */
export async function expectFencedWrites(store: GrantStore, other: GrantStore): Promise<void> {
  const older = await store.lock('school-grant', 'usr_fenced', { ttlMs: 60_000 });
  expect(await store.writeFenced('school-grant', 'usr_fenced', { by: 'older' }, older!.fence)).toBe(true);
  expect(await other.read('school-grant', 'usr_fenced')).toEqual({ by: 'older' });
  // The lock passes to a newer holder (released here; to the store, running out is the same), which writes.
  await older!.release();
  const newer = await other.lock('school-grant', 'usr_fenced', { ttlMs: 60_000 });
  expect(
    await other.writeFenced('school-grant', 'usr_fenced', { by: 'newer' }, newer!.fence, { ttlSeconds: 600 }),
  ).toBe(true);
  expect(await store.writeFenced('school-grant', 'usr_fenced', { by: 'older, late' }, older!.fence)).toBe(false);
  expect(await store.read('school-grant', 'usr_fenced')).toEqual({ by: 'newer' });
  expect(await other.writeFenced('school-grant', 'usr_fenced', { by: 'newer, again' }, newer!.fence)).toBe(true);
  expect(await store.read('school-grant', 'usr_fenced')).toEqual({ by: 'newer, again' });
  await newer!.release();
  // The next lock's fence is above the one the record carries, so its writes land.
  const next = await store.lock('school-grant', 'usr_fenced', { ttlMs: 60_000 });
  expect(next!.fence).toBeGreaterThan(newer!.fence);
  expect(await store.writeFenced('school-grant', 'usr_fenced', { by: 'next' }, next!.fence)).toBe(true);
  await next!.release();
  await store.write('school-grant', 'usr_fenced', { by: 'a sign-in' });
  expect(await store.writeFenced('school-grant', 'usr_fenced', { by: 'older, later still' }, older!.fence)).toBe(true);
  expect(await other.read('school-grant', 'usr_fenced')).toEqual({ by: 'older, later still' });
  await expect(store.writeFenced('school-grant', 'usr_fenced', { by: 'nobody' }, 0)).rejects.toThrow(RangeError);
}

/** A fenced write that only replaces leaves a removed record removed, and replaces one that is there. */
export async function expectReplaceOnly(store: GrantStore): Promise<void> {
  const lock = await store.lock('school-grant', 'usr_signed_out', { ttlMs: 60_000 });
  expect(
    await store.writeFenced('school-grant', 'usr_signed_out', { by: 'refresh' }, lock!.fence, { replaceOnly: true }),
  ).toBe(false);
  expect(await store.read('school-grant', 'usr_signed_out')).toBeUndefined();
  await store.write('school-grant', 'usr_signed_out', { by: 'sign-in' });
  expect(
    await store.writeFenced('school-grant', 'usr_signed_out', { by: 'refresh' }, lock!.fence, { replaceOnly: true }),
  ).toBe(true);
  expect(await store.read('school-grant', 'usr_signed_out')).toEqual({ by: 'refresh' });
  await store.remove('school-grant', 'usr_signed_out');
  expect(
    await store.writeFenced('school-grant', 'usr_signed_out', { by: 'refresh, late' }, lock!.fence, {
      replaceOnly: true,
    }),
  ).toBe(false);
  expect(await store.read('school-grant', 'usr_signed_out')).toBeUndefined();
  await lock!.release();
}

/**
 * `writeIfAbsent` creates a record only where there is none: of creators racing on `stores` (one
 * per instance), exactly one wins, and every later reader sees the winner's value.
 */
export async function expectOneCreatorWins(stores: readonly GrantStore[]): Promise<void> {
  const first = stores[0]!;
  expect(await first.writeIfAbsent('hosted-secrets', 'solo', { by: 'first' })).toBe(true);
  expect(await first.writeIfAbsent('hosted-secrets', 'solo', { by: 'second' })).toBe(false);
  expect(await first.read('hosted-secrets', 'solo')).toEqual({ by: 'first' });
  for (let round = 0; round < 3; round += 1) {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        stores[index % stores.length]!.writeIfAbsent('hosted-secrets', `raced-${round}`, { by: index }),
      ),
    );
    expect(created.filter(Boolean)).toHaveLength(1);
    const winner = created.indexOf(true);
    for (const store of stores) expect(await store.read('hosted-secrets', `raced-${round}`)).toEqual({ by: winner });
  }
}
