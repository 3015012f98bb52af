import type * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import type { SchoolMetadata } from '../../src/oauth/discovery.js';
import {
  revocationSchoolOf,
  signOutOutcome,
  signOutPlan,
  withPendingRevocation,
  withoutTokens,
} from '../../src/oauth/sign-out.js';
import type { PendingRevocation, StoreRecord } from '../../src/oauth/store-record.js';
import type { TokenSet } from '../../src/oauth/token-set.js';

const ISSUER = 'https://school.example';
const tokens: TokenSet = {
  accessToken: 'AT',
  refreshToken: 'RT',
  scopes: [],
  resource: `${ISSUER}/api`,
  clientId: 'c1',
  obtainedAt: 0,
};
const earlier: PendingRevocation = { token: 'RT-old', hint: 'refresh_token', clientId: 'c0' };
const record = (extra: Partial<StoreRecord> = {}): StoreRecord => ({ version: 1, issuer: ISSUER, ...extra });
const refresh = (token: string): PendingRevocation => ({ token, hint: 'refresh_token', clientId: 'c1' });
const access = (token: string): PendingRevocation => ({ token, hint: 'access_token', clientId: 'c1' });
const school = (server: Record<string, unknown>): SchoolMetadata => ({
  issuer: ISSUER,
  server: { issuer: ISSUER, ...server } as client.ServerMetadata,
  resource: `${ISSUER}/api`,
  resourceScopes: [],
});

describe('sign-out (pure)', () => {
  it.each([
    ['no record', undefined, undefined],
    ['a record without tokens', record(), undefined],
    ['tokens', record({ tokens }), [refresh('RT'), access('AT')]],
    ['tokens without a refresh token', record({ tokens: { ...tokens, refreshToken: undefined } }), [access('AT')]],
    [
      'tokens and a refresh token kept aside',
      record({ tokens, pendingRevocation: [earlier] }),
      [earlier, refresh('RT'), access('AT')],
    ],
    ['a refresh token kept aside alone', record({ pendingRevocation: [earlier] }), [earlier]],
  ])('RV-01 revokes, for %s, the refresh token before the access token', (_what, before, queue) => {
    const plan = signOutPlan(before);
    if (queue === undefined)
      expect(plan).toEqual({
        kind: 'nothing',
        report: { revoked: false, message: 'Not signed in to this school; nothing to revoke.' },
      });
    else expect(plan).toEqual({ kind: 'revoke', queue });
  });

  it.each([
    ['a school that could not be reached', undefined, 'unreachable'],
    ['a school without a revocation endpoint', school({}), 'no-endpoint'],
    ['a school with a revocation endpoint', school({ revocation_endpoint: `${ISSUER}/revoke` }), 'offered'],
  ])('tells %s apart', (_what, metadata, expected) => {
    expect(revocationSchoolOf(metadata)).toBe(expected);
  });

  it.each([
    ['everything confirmed', [], 'offered', true, [], /^Signed out: the school revoked the tokens/],
    [
      'the school unreachable',
      [refresh('RT'), access('AT')],
      'unreachable',
      false,
      [refresh('RT')],
      /the school could not be reached: .* will be retried the next time/,
    ],
    [
      'no revocation endpoint',
      [refresh('RT'), access('AT')],
      'no-endpoint',
      false,
      [refresh('RT')],
      /the school offers no revocation endpoint: .* will be retried/,
    ],
    [
      'only the access token unconfirmed',
      [access('AT')],
      'offered',
      false,
      [],
      /revocation not confirmed by the school: the tokens may stay valid at the school until they expire\.$/,
    ],
  ] as const)(
    'RV-03 reports %s, keeping unconfirmed refresh tokens aside',
    (_what, unconfirmed, how, revoked, keep, message) => {
      const outcome = signOutOutcome(unconfirmed, how);
      expect(outcome.keep).toEqual(keep);
      expect(outcome.report.revoked).toBe(revoked);
      expect(outcome.report.message).toMatch(message);
    },
  );

  it('RV-03 forgets the tokens and nothing else of the record', () => {
    const client = { kind: 'dynamic' as const, clientId: 'c1', redirectUris: [], registeredAt: 1 };
    const before = record({ client, tokens, pendingRevocation: [earlier] });
    expect(withoutTokens(before)).toEqual(record({ client, pendingRevocation: [earlier] }));
    expect(before.tokens).toBe(tokens);
  });

  it.each([
    [
      'keeps a refresh token aside',
      record({ pendingRevocation: [earlier] }),
      [refresh('RT')],
      record({ pendingRevocation: [refresh('RT')] }),
    ],
    ['drops the list when nothing is left', record({ pendingRevocation: [earlier] }), [], record()],
    ['leaves a record without a list as it is', record(), [], record()],
  ])('RV-03 %s', (_what, before, keep, expected) => {
    expect(withPendingRevocation(before, keep)).toEqual(expected);
  });
});
