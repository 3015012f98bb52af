/** What another process's consent flow left in the token store once it let go of the lock. */
import { describe, expect, it } from 'vitest';
import {
  endedFlowOutcome,
  tokensCovering,
  type EndedFlowOutcome,
  type EndedFlowView,
} from '../../src/consent/ended-flow-outcome.js';
import type { TokenSet } from '../../src/oauth/index.js';

const tokens = (scopes: string[]): TokenSet => ({
  accessToken: 'at',
  scopes,
  resource: 'https://api.example',
  clientId: 'c',
  obtainedAt: 0,
});
const covering = tokens(['courses:read', 'members:write']);
const since = 1_000;
const wanted = ['openid', 'profile', 'members:write'];

describe('tokensCovering', () => {
  it.each([
    ['no tokens', undefined, ['courses:read'], undefined],
    ['every scope granted', covering, ['courses:read'], covering],
    ['the baseline scopes need not be granted', covering, ['openid', 'profile', 'members:write'], covering],
    ['a scope missing', covering, ['courses:write'], undefined],
  ] as const)('%s', (_name, given, scopes, expected) => {
    expect(tokensCovering(given, scopes)).toBe(expected);
  });
});

describe('endedFlowOutcome', () => {
  const cases: Array<[string, Omit<EndedFlowView, 'scopes' | 'since'>, EndedFlowOutcome]> = [
    [
      'tokens that cover what is wanted',
      { usable: covering, lastFailure: undefined },
      { kind: 'tokens', tokens: covering },
    ],
    [
      'tokens win over a failure',
      { usable: covering, lastFailure: { code: 'OAUTH_ACCESS_DENIED', at: since + 1 } },
      { kind: 'tokens', tokens: covering },
    ],
    [
      'tokens for less, no failure: nothing',
      { usable: tokens(['courses:read']), lastFailure: undefined },
      { kind: 'nothing' },
    ],
    ['nothing stored', { usable: undefined, lastFailure: undefined }, { kind: 'nothing' }],
    ...(
      ['OAUTH_ACCESS_DENIED', 'OAUTH_CONSENT_TIMEOUT', 'OAUTH_AUTHORIZATION_FAILED', 'OAUTH_CALLBACK_REJECTED'] as const
    ).map((code): [string, Omit<EndedFlowView, 'scopes' | 'since'>, EndedFlowOutcome] => [
      `${code} since the wait began is passed on`,
      { usable: undefined, lastFailure: { code, at: since } },
      { kind: 'failed', code },
    ]),
    [
      'a failure from before the wait began belongs to an earlier flow',
      { usable: undefined, lastFailure: { code: 'OAUTH_ACCESS_DENIED', at: since - 1 } },
      { kind: 'nothing' },
    ],
    [
      'a failure of the holder’s own (its callback port busy) is not the user’s answer',
      { usable: undefined, lastFailure: { code: 'OAUTH_CALLBACK_PORT_BUSY', at: since + 1 } },
      { kind: 'nothing' },
    ],
  ];
  it.each(cases)('%s', (_name, view, outcome) => {
    expect(endedFlowOutcome({ ...view, scopes: wanted, since })).toEqual(outcome);
  });
});
