import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../../src/oauth/token-set.js';
import { tokenStanding, usableTokensOf } from '../../src/oauth/token-standing.js';

const RESOURCE = 'https://school.example/api';
const tokens = (extra: Partial<TokenSet> = {}): TokenSet => ({
  accessToken: 'AT',
  refreshToken: 'RT',
  scopes: ['courses:read'],
  resource: RESOURCE,
  clientId: 'c1',
  obtainedAt: 0,
  expiresAt: 3_600_000,
  ...extra,
});

describe('whether stored tokens can be used (pure)', () => {
  it.each([
    ['tokens of this client for this resource', tokens(), 'c1', RESOURCE, true],
    ['tokens of another client', tokens(), 'c2', RESOURCE, false],
    ['tokens for another resource', tokens(), 'c1', 'https://other.example/api', false],
    ['tokens without a client to sign in as', tokens(), undefined, RESOURCE, false],
    ['tokens before the school is known', tokens(), 'c1', undefined, false],
    ['no tokens', undefined, 'c1', RESOURCE, false],
  ])('MD-06 ST-05 uses %s: %s', (_what, stored, clientId, resource, usable) => {
    expect(usableTokensOf(stored, clientId, resource)).toBe(usable ? stored : undefined);
  });

  it.each([
    ['no usable tokens', undefined, 0, 'sign-in'],
    ['tokens with an hour left', tokens(), 0, 'use'],
    ['tokens with a minute left', tokens(), 3_540_000, 'refresh'],
    ['expired tokens', tokens(), 4_000_000, 'refresh'],
    ['expired tokens without a refresh token', tokens({ refreshToken: undefined }), 4_000_000, 'use'],
    ['tokens of unknown expiry', tokens({ expiresAt: undefined }), 9_999_999, 'use'],
    ['a 60 s token past half its lifetime', tokens({ expiresAt: 60_000 }), 30_000, 'refresh'],
    ['a 60 s token before half its lifetime', tokens({ expiresAt: 60_000 }), 29_999, 'use'],
  ])('RF-08 answers for %s', (_what, usable, now, kind) => {
    const standing = tokenStanding(usable, now);
    expect(standing.kind).toBe(kind);
    if (standing.kind !== 'sign-in') expect(standing.tokens).toBe(usable);
  });
});
