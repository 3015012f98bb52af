import { describe, expect, it } from 'vitest';
import { mergeSchoolGrants, type SchoolGrant } from '../../src/hosted/school-grant.js';

function grant(token: string, scopes: string[], claims: Partial<SchoolGrant> = {}): SchoolGrant {
  return {
    sub: 'usr_owner_ada',
    name: 'Ada',
    accessToken: `at-${token}`,
    refreshToken: `rt-${token}`,
    scopes: ['openid', 'profile', ...scopes],
    expiresAt: 1_800_000_000,
    ...claims,
  };
}

describe("one school grant per person, which only grows by the person's consent", () => {
  it('HOST-32 stores a first grant as it is, with nothing to revoke', () => {
    const first = grant('a', ['account:read']);
    expect(mergeSchoolGrants(undefined, first, true)).toEqual({ kind: 'store', grant: first });
  });

  it('HOST-32 keeps the wider grant of a step-up when another client signs in with the base scopes, revoking the new tokens', () => {
    const stepped = grant('a', ['account:read', 'comments:read'], { roles: ['owner'] });
    const second = grant('b', ['account:read'], { name: 'Ada Lovelace', roles: ['owner', 'lecturer'] });
    const merge = mergeSchoolGrants(stepped, second, true);
    expect(merge).toEqual({
      kind: 'store',
      grant: { ...stepped, name: 'Ada Lovelace', roles: ['owner', 'lecturer'] },
      discard: second,
    });
    // The tokens and scopes are the kept grant's; only the claims are the newer answer's.
    expect(merge.kind === 'store' && merge.grant.accessToken).toBe('at-a');
  });

  it('HOST-32 takes a new grant that covers the stored one (an equal sign-in, a step-up), revoking the one it replaces', () => {
    const stored = grant('a', ['account:read']);
    const equal = grant('b', ['account:read']);
    expect(mergeSchoolGrants(stored, equal, true)).toEqual({ kind: 'store', grant: equal, discard: stored });
    const wider = grant('c', ['account:read', 'members:write']);
    expect(mergeSchoolGrants(stored, wider, true)).toEqual({ kind: 'store', grant: wider, discard: stored });
  });

  it('HOST-32 asks once for the union when neither grant covers the other, keeping the stored one meanwhile', () => {
    const stored = grant('a', ['account:read', 'comments:read']);
    const crossed = grant('b', ['account:read', 'coupons:write']);
    expect(mergeSchoolGrants(stored, crossed, true)).toEqual({
      kind: 'ask-for-union',
      scopes: ['account:read', 'comments:read', 'coupons:write', 'openid', 'profile'],
      discard: crossed,
    });
    // The answer to that request is not widened again: the stored grant stays.
    expect(mergeSchoolGrants(stored, crossed, false)).toMatchObject({
      kind: 'store',
      grant: { accessToken: 'at-a' },
      discard: crossed,
    });
  });

  it("never merges two people's grants", () => {
    expect(() => mergeSchoolGrants(grant('a', []), grant('b', [], { sub: 'usr_grace' }), true)).toThrow(RangeError);
  });
});
