/** What a consent call does once the flow it waited for ended. */
import { describe, expect, it } from 'vitest';
import { flowFollowUp, type FlowFollowUp, type SettledFlowView } from '../../src/consent/flow-follow-up.js';

describe('flowFollowUp', () => {
  const cases: Array<[string, SettledFlowView, FlowFollowUp]> = [
    [
      'granted all that was wanted: done',
      {
        wanted: ['openid', 'members:write'],
        flowScopes: ['openid'],
        ended: { kind: 'tokens', scopes: ['members:write'] },
      },
      { kind: 'done' },
    ],
    [
      'the flow asked for all that was wanted: done, whatever it granted',
      {
        wanted: ['members:write'],
        flowScopes: ['members:write', 'openid'],
        ended: { kind: 'tokens', scopes: ['openid'] },
      },
      { kind: 'done' },
    ],
    [
      'another process’s flow asked for less: ask for what it granted plus what is wanted',
      {
        wanted: ['members:write'],
        flowScopes: ['courses:read'],
        ended: { kind: 'tokens', scopes: ['courses:read', 'openid'] },
      },
      { kind: 'consent', scopes: ['courses:read', 'members:write', 'openid'] },
    ],
    [
      'that flow left nothing to use: ask again for what is wanted',
      { wanted: ['members:write'], flowScopes: ['members:write'], ended: { kind: 'left-nothing' } },
      { kind: 'consent', scopes: ['members:write'] },
    ],
  ];
  it.each(cases)('%s', (_name, view, followUp) => {
    expect(flowFollowUp(view)).toEqual(followUp);
  });
});
