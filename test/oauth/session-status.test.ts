import { describe, expect, it } from 'vitest';
import { sessionStatusOf } from '../../src/oauth/session-status.js';
import type { IntrospectedToken } from '../../src/oauth/token-introspection.js';
import type { TokenSet } from '../../src/oauth/token-set.js';

const tokens: TokenSet = {
  accessToken: 'AT',
  scopes: ['courses:read', 'grades:read'],
  resource: 'https://school.example/api',
  clientId: 'c1',
  obtainedAt: 0,
  expiresAt: 3_600_000,
};
const user = { sub: 'usr_ada', name: 'Ada' };
const base = { issuer: 'https://school.example', clientId: 'c1', user: undefined };

describe('what status reports (pure)', () => {
  it.each<[string, TokenSet | undefined, IntrospectedToken | undefined, object]>([
    ['signed out', undefined, undefined, { scopes: [], expiresAt: undefined, signedIn: false }],
    [
      'the local record without introspection',
      tokens,
      undefined,
      { scopes: tokens.scopes, expiresAt: 3_600_000, signedIn: true },
    ],
    [
      "the school's view of an active token",
      tokens,
      { active: true, scopes: ['courses:read'], expiresAt: 1_800_000 },
      { scopes: ['courses:read'], expiresAt: 1_800_000, signedIn: true, introspection: 'active' },
    ],
    [
      'the local record where the active token view leaves fields out',
      tokens,
      { active: true, scopes: undefined, expiresAt: undefined },
      { scopes: tokens.scopes, expiresAt: 3_600_000, introspection: 'active' },
    ],
    [
      'the local record beside an inactive token',
      tokens,
      { active: false },
      { scopes: tokens.scopes, expiresAt: 3_600_000, signedIn: true, introspection: 'inactive' },
    ],
  ])('reports %s', (_what, stored, checked, expected) => {
    const status = sessionStatusOf({ ...base, tokens: stored, checked });
    expect(status).toMatchObject({ ...base, ...expected });
    if (checked === undefined) expect(status).not.toHaveProperty('introspection');
  });

  it('reports the signed-in user and the client as gathered', () => {
    expect(sessionStatusOf({ ...base, user, tokens, checked: undefined })).toMatchObject({ user, clientId: 'c1' });
  });
});
