import { describe, expect, it } from 'vitest';
import type { AccountStatus } from '../../src/server/account.js';
import { whoAmIText } from '../../src/server/who-am-i-text.js';

const signedIn: AccountStatus = {
  signedIn: true,
  issuer: 'https://school.example',
  clientId: 'client-1',
  user: { sub: 'usr_1', name: 'Ada Admin', email: 'ada@school.example', orgId: 'org_7', roles: ['owner', 'admin'] },
  scopes: ['courses:read', 'coupons:write'],
  expiresAt: Date.parse('2026-11-27T10:00:00Z'),
};

describe('who_am_i text', () => {
  it('names the school, its organisation, the user, the roles, the scopes and the expiry', () => {
    expect(whoAmIText(signedIn)).toBe(
      'Signed in to the school https://school.example (organisation org_7) as Ada Admin <ada@school.example>. Roles: owner, admin. ' +
        'Granted scopes: courses:read coupons:write. Access expires at 2026-11-27T10:00:00.000Z.',
    );
  });

  it('says when the school states no roles, and when nobody is signed in', () => {
    expect(whoAmIText({ ...signedIn, user: { sub: 'usr_1' }, expiresAt: undefined })).toBe(
      'Signed in to the school https://school.example as usr_1. Roles: none stated by the school. Granted scopes: courses:read coupons:write.',
    );
    expect(whoAmIText({ ...signedIn, signedIn: false, user: undefined, scopes: [] })).toMatch(
      /^Not signed in to the school https:\/\/school\.example yet\./,
    );
  });

  it('tells a hosted caller whose school grant ended to connect again, not that a tool call signs in', () => {
    const text = whoAmIText({
      ...signedIn,
      signedIn: false,
      user: undefined,
      scopes: [],
      signInAdvice: 'Ask the user to connect again.',
    });
    expect(text).toBe('Not signed in to the school https://school.example. Ask the user to connect again.');
  });
});
