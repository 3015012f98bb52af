/**
 * How a call reaches the user for a consent, from the channel chosen for it, whether the flow was
 * shown before and to whom, and the user's answer when the call is a client's retry. Pure.
 */
import type { ConsentChannel } from './consent-channel.js';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export interface ReachView {
  readonly channel: ConsentChannel;
  /** The process is going away: a link shown now would die with it. */
  readonly leaving: boolean;
  /** The MCP session the flow was shown to, when it was shown before. */
  readonly shownTo: { readonly owner: string | undefined } | undefined;
  /** The MCP session of this call. */
  readonly session: string | undefined;
  /** The user's answer to this very flow, when the call is the client's retry of an input-required result. */
  readonly answer: ElicitationAction | undefined;
}

export type ReachStep =
  | { readonly kind: 'leaving' }
  /** Over HTTP the user who approves must be the one who asked: a flow stays with its session. */
  | { readonly kind: 'foreign-flow' }
  /** The user declined to open the link: end the flow as denied. */
  | { readonly kind: 'decline' }
  /** The call stops waiting and says the flow is pending. */
  | { readonly kind: 'stop-waiting' }
  /** 2026-07-28: return an input-required result; the client's retry comes back and waits. */
  | { readonly kind: 'ask-in-result' }
  /** 2025-11-25: send a URL elicitation, then wait. */
  | { readonly kind: 'elicit' }
  | { readonly kind: 'open-browser' }
  /** The link was shown already, or goes into the result: wait for the flow within the call's budget. */
  | { readonly kind: 'wait' };

export function reachStep(view: ReachView): ReachStep {
  if (view.leaving) return { kind: 'leaving' };
  if (view.shownTo !== undefined && view.shownTo.owner !== view.session) return { kind: 'foreign-flow' };
  const firstShowing = view.shownTo === undefined;
  switch (view.channel) {
    case 'input-required':
      if (view.answer === 'decline') return { kind: 'decline' };
      if (view.answer === 'cancel') return { kind: 'stop-waiting' };
      return view.answer === undefined && firstShowing ? { kind: 'ask-in-result' } : { kind: 'wait' };
    case 'elicit-url':
      return firstShowing ? { kind: 'elicit' } : { kind: 'wait' };
    case 'browser':
      return firstShowing ? { kind: 'open-browser' } : { kind: 'wait' };
    case 'link':
      return { kind: 'wait' };
  }
}
