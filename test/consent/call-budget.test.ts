/** How long one tool call waits for the user, and how much of that one showing of a link uses. */
import { describe, expect, it } from 'vitest';
import { callBudget, LINK_RECHECK_MS, showingWaitMs, type CallBudgetView } from '../../src/consent/call-budget.js';
import type { ConsentChannel } from '../../src/consent/consent-channel.js';

describe('callBudget', () => {
  it.each<[string, Omit<CallBudgetView, 'startedAt'>, number]>([
    ['elicit-url: the whole --consent-wait', { channel: 'elicit-url', waitMs: 45_000, linkWaitMs: 0 }, 45_000],
    ['input-required: the whole --consent-wait', { channel: 'input-required', waitMs: 45_000, linkWaitMs: 0 }, 45_000],
    ['browser: the whole --consent-wait', { channel: 'browser', waitMs: 45_000, linkWaitMs: 0 }, 45_000],
    ['link: --link-wait', { channel: 'link', waitMs: 45_000, linkWaitMs: 10_000 }, 10_000],
    [
      'link: at least the re-check of a link shown before',
      { channel: 'link', waitMs: 45_000, linkWaitMs: 0 },
      LINK_RECHECK_MS,
    ],
    ['link: never past --consent-wait', { channel: 'link', waitMs: 1_000, linkWaitMs: 0 }, 1_000],
  ])('%s', (_name, view, totalMs) => {
    expect(callBudget({ ...view, startedAt: 100 })).toEqual({
      deadline: 100 + totalMs,
      firstLinkWaitMs: view.linkWaitMs,
    });
  });
});

describe('showingWaitMs', () => {
  const budget = { deadline: 0, firstLinkWaitMs: 0 };
  it.each<[string, ConsentChannel, boolean, number]>([
    ['a link shown for the first time: --link-wait', 'link', true, 0],
    ['a link shown before: what is left', 'link', false, 2_000],
    ...(['elicit-url', 'input-required', 'browser'] as const).map(
      (channel): [string, ConsentChannel, boolean, number] => [`${channel}: what is left`, channel, true, 2_000],
    ),
  ])('%s', (_name, channel, firstShowing, waitMs) => {
    expect(showingWaitMs(budget, channel, firstShowing, 2_000)).toBe(waitMs);
  });
  it('a first link never waits past what is left', () => {
    expect(showingWaitMs({ deadline: 0, firstLinkWaitMs: 5_000 }, 'link', true, 2_000)).toBe(2_000);
  });
});
