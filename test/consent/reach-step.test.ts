/** How a call reaches the user for a consent. */
import { describe, expect, it } from 'vitest';
import type { ConsentChannel } from '../../src/consent/consent-channel.js';
import { reachStep, type ReachStep, type ReachView } from '../../src/consent/reach-step.js';

const first = { shownTo: undefined, session: 's1' } as const;
const again = { shownTo: { owner: 's1' }, session: 's1' } as const;
const channels: readonly ConsentChannel[] = ['input-required', 'elicit-url', 'browser', 'link'];

describe('reachStep', () => {
  const cases: Array<[string, Omit<ReachView, 'leaving'> & { leaving?: boolean }, ReachStep['kind']]> = [
    ...channels.map((channel): [string, ReachView, ReachStep['kind']] => [
      `${channel}: the process going away answers at once`,
      { channel, ...first, leaving: true, answer: undefined },
      'leaving',
    ]),
    ...channels.map((channel): [string, ReachView, ReachStep['kind']] => [
      `${channel}: a flow shown to another MCP session is not shown here`,
      { channel, shownTo: { owner: 's1' }, session: 's2', leaving: false, answer: undefined },
      'foreign-flow',
    ]),
    [
      'a flow shown without a session (stdio) is shown again without one',
      { channel: 'link', shownTo: { owner: undefined }, session: undefined, answer: undefined },
      'wait',
    ],
    [
      'input-required, first showing: the link goes out in the result',
      { channel: 'input-required', ...first, answer: undefined },
      'ask-in-result',
    ],
    ['input-required, shown before: wait', { channel: 'input-required', ...again, answer: undefined }, 'wait'],
    [
      'input-required, the retry says the user opened the link: wait',
      { channel: 'input-required', ...first, answer: 'accept' },
      'wait',
    ],
    [
      'input-required, the retry says the user declined',
      { channel: 'input-required', ...again, answer: 'decline' },
      'decline',
    ],
    [
      'input-required, the retry says the user dismissed it: pending',
      { channel: 'input-required', ...again, answer: 'cancel' },
      'stop-waiting',
    ],
    ['elicit-url, first showing: elicit', { channel: 'elicit-url', ...first, answer: undefined }, 'elicit'],
    ['elicit-url, shown before: wait', { channel: 'elicit-url', ...again, answer: undefined }, 'wait'],
    ['elicit-url ignores an input-required answer', { channel: 'elicit-url', ...again, answer: 'decline' }, 'wait'],
    ['browser, first showing: open it', { channel: 'browser', ...first, answer: undefined }, 'open-browser'],
    ['browser, shown before: wait', { channel: 'browser', ...again, answer: undefined }, 'wait'],
    [
      'link, first showing: wait, the link goes into the result',
      { channel: 'link', ...first, answer: undefined },
      'wait',
    ],
    ['link, shown before: wait', { channel: 'link', ...again, answer: undefined }, 'wait'],
  ];
  it.each(cases)('%s', (_name, view, kind) => {
    expect(reachStep({ leaving: false, ...view })).toEqual({ kind });
  });
});
