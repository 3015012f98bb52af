/**
 * How long one tool call waits for the user, over all its consent rounds, and how much of that
 * one showing of a link uses. Pure.
 */
import type { ConsentChannel } from './consent-channel.js';

/**
 * A user who calls again after seeing the link has most likely just approved; the flow may still
 * be exchanging the code, so a repeated showing waits this long (within `--consent-wait`) before
 * answering "pending" again.
 */
export const LINK_RECHECK_MS = 3_000;

/** When one call stops waiting for the user, and how long the link channel waits on a first showing. */
export interface CallBudget {
  readonly deadline: number;
  readonly firstLinkWaitMs: number;
}

export interface CallBudgetView {
  readonly channel: ConsentChannel;
  readonly startedAt: number;
  /** `--consent-wait`. */
  readonly waitMs: number;
  /** `--link-wait`. */
  readonly linkWaitMs: number;
}

/** `--consent-wait` bounds every call; the link channel uses only part of it (`--link-wait`). */
export function callBudget(view: CallBudgetView): CallBudget {
  const totalMs =
    view.channel === 'link' ? Math.min(view.waitMs, Math.max(view.linkWaitMs, LINK_RECHECK_MS)) : view.waitMs;
  return { deadline: view.startedAt + totalMs, firstLinkWaitMs: view.linkWaitMs };
}

/**
 * How long one showing of a consent waits for the user: what is left of the call's wait, and on
 * a link's first showing no more than `--link-wait`, since the user sees that link only once the
 * call answers.
 */
export function showingWaitMs(
  budget: CallBudget,
  channel: ConsentChannel,
  firstShowing: boolean,
  remainingMs: number,
): number {
  return channel === 'link' && firstShowing ? Math.min(budget.firstLinkWaitMs, remainingMs) : remainingMs;
}
