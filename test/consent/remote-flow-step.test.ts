/** What a process does about a consent flow another process runs, from what the consent lock shows. */
import { describe, expect, it } from 'vitest';
import {
  joinStep,
  LINK_NOTE_WAIT_MS,
  watchStep,
  type JoinStep,
  type JoinView,
} from '../../src/consent/remote-flow-step.js';
import type { TokenSet } from '../../src/oauth/index.js';

const base = { scopes: ['courses:read'], since: 1_000 };
const note = { url: 'https://as.example/authorize?state=a', scopes: ['openid', 'members:write'], startedAt: 500 };

describe('joinStep', () => {
  const cases: Array<[string, Omit<JoinView, 'scopes' | 'since'>, JoinStep]> = [
    ['no holder: read what its flow left', { holder: undefined, waitedMs: 0 }, { kind: 'read-outcome' }],
    ['no holder after waiting', { holder: undefined, waitedMs: 4_800 }, { kind: 'read-outcome' }],
    ['a holder without a note yet: wait for its link', { holder: {}, waitedMs: 0 }, { kind: 'wait-for-link' }],
    [
      'a note without a link, still within the wait',
      { holder: { note: { scopes: ['x'] } }, waitedMs: LINK_NOTE_WAIT_MS - 1 },
      { kind: 'wait-for-link' },
    ],
    [
      'a link not written in time: join without one, with the scopes wanted and the time the wait began',
      { holder: {}, waitedMs: LINK_NOTE_WAIT_MS },
      { kind: 'join', scopes: ['courses:read'], startedAt: 1_000 },
    ],
    ['a link: join it', { holder: { note }, waitedMs: 0 }, { kind: 'join', ...note }],
    [
      'a link the browser came back to: wait for the holder to let go',
      { holder: { note: { ...note, answered: true } }, waitedMs: 0 },
      { kind: 'await-release' },
    ],
    [
      'answered, without a link once the wait is over: still wait for the holder',
      { holder: { note: { answered: true } }, waitedMs: LINK_NOTE_WAIT_MS },
      { kind: 'await-release' },
    ],
    [
      'a note of the wrong shape: the scopes wanted and the time the wait began',
      { holder: { note: { url: note.url, scopes: 'openid', startedAt: '500' } }, waitedMs: 0 },
      { kind: 'join', url: note.url, scopes: ['courses:read'], startedAt: 1_000 },
    ],
  ];
  it.each(cases)('%s', (_name, view, step) => {
    expect(joinStep({ ...base, ...view })).toEqual(step);
  });
});

describe('watchStep', () => {
  const tokens: TokenSet = {
    accessToken: 'at',
    scopes: ['courses:read'],
    resource: 'https://api.example',
    clientId: 'c',
    obtainedAt: 0,
  };
  it.each([
    [
      'tokens that cover: done, whoever holds the lock',
      { covering: tokens, held: true, stale: false },
      { kind: 'done', tokens },
    ],
    ['no holder: its flow is over', { covering: undefined, held: false, stale: false }, { kind: 'read-outcome' }],
    [
      'a dead or outlived holder: its flow is over',
      { covering: undefined, held: true, stale: true },
      { kind: 'read-outcome' },
    ],
    ['a live holder: look again', { covering: undefined, held: true, stale: false }, { kind: 'poll' }],
  ] as const)('%s', (_name, view, step) => {
    expect(watchStep(view)).toEqual(step);
  });
});
