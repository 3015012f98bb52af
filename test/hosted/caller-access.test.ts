/**
 * One caller's tokens in hosted mode, against a real directory store where a second store object
 * on the same directory stands for another instance: when a call refreshes first, and when it goes
 * ahead with the token it has.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GrantStore } from '../../src/grant-store/index.js';
import { createCallerAccess } from '../../src/hosted/caller-access.js';
import { SCHOOL_GRANTS, type SchoolGrant, type SchoolSignIn } from '../../src/hosted/school-sign-in.js';
import { storePairs } from './store-pair.js';

/** Two instances on one shared store. */
const twoInstances = storePairs();

const caller = { sub: 'usr_lecturer_grace', clientId: 'client-1', grantId: 'grant-1' };
const anyScope = { scopeAlternatives: [], requiredScopes: [] };

function accessOn(store: GrantStore) {
  const refresh = vi.fn(async (grant: SchoolGrant): Promise<SchoolGrant> => ({
    ...grant,
    accessToken: 'at-1',
    refreshToken: 'rt-1',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  }));
  const signIn = { refresh, revoke: vi.fn(async () => undefined) } as unknown as SchoolSignIn;
  const access = createCallerAccess({
    store,
    signIn,
    schoolIssuer: 'http://school.test',
    stepUpUrl: (id) => `http://mcp.test/step-up/${id}`,
    endMcpGrant: async () => undefined,
  });
  return { tokens: access.tokensFor(caller), refresh };
}

function grantExpiringIn(seconds: number): Record<string, unknown> {
  return {
    sub: caller.sub,
    accessToken: 'at-0',
    refreshToken: 'rt-0',
    scopes: ['courses:read'],
    expiresAt: Math.floor(Date.now() / 1000) + seconds,
  };
}

describe("a hosted caller's school token", () => {
  it('is refreshed first in its last 30 s, when no other instance is refreshing it', async () => {
    const [store] = await twoInstances();
    await store.write(SCHOOL_GRANTS, caller.sub, grantExpiringIn(20));
    const { tokens, refresh } = accessOn(store);
    expect(await tokens.accessToken(anyScope)).toBe('at-1');
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  // Without this, every call of the person waited 15 s and failed with OAUTH_LOCK_TIMEOUT while
  // an instance that died mid-refresh still held the lock, though their token still worked.
  it('SCL-13 goes ahead with a token that still works while another instance holds its refresh lock, waiting for nothing', async () => {
    const [store, otherInstance] = await twoInstances();
    await store.write(SCHOOL_GRANTS, caller.sub, grantExpiringIn(20));
    const held = await otherInstance.lock(SCHOOL_GRANTS, caller.sub, { ttlMs: 60_000 });
    expect(held).toBeDefined();
    const { tokens, refresh } = accessOn(store);
    expect(await tokens.accessToken(anyScope)).toBe('at-0');
    expect(refresh).not.toHaveBeenCalled();
    await held!.release();
  });
});
