/** What a call does once the client answered its URL elicitation, or failed to. */
import { describe, expect, it } from 'vitest';
import { afterElicitation, type AfterElicitation, type ElicitationEnd } from '../../src/consent/after-elicitation.js';

describe('afterElicitation', () => {
  it.each<[string, ElicitationEnd, AfterElicitation]>([
    ['opened the link: wait for the flow', { kind: 'answered', action: 'accept' }, 'wait'],
    ['declined: the flow ends as denied', { kind: 'answered', action: 'decline' }, 'decline'],
    ['dismissed: pending', { kind: 'answered', action: 'cancel' }, 'stop-waiting'],
    ['the client cancelled the request', { kind: 'failed', requestCancelled: true, leaving: true }, 'cancelled'],
    ['the process is going away', { kind: 'failed', requestCancelled: false, leaving: true }, 'leaving'],
    [
      'the client could not show it: the link goes into the result',
      { kind: 'failed', requestCancelled: false, leaving: false },
      'not-shown',
    ],
  ])('%s', (_name, end, next) => {
    expect(afterElicitation(end)).toBe(next);
  });
});
