/** What a call does once the client answered its URL elicitation, or failed to. Pure. */
import type { ElicitationAction } from './reach-step.js';

export type ElicitationEnd =
  | { readonly kind: 'answered'; readonly action: ElicitationAction }
  | {
      readonly kind: 'failed';
      /** The client cancelled the request itself. */
      readonly requestCancelled: boolean;
      /** This process is going away. */
      readonly leaving: boolean;
    };

export type AfterElicitation =
  /** The user opened the link: wait for the flow. */
  | 'wait'
  /** The user declined: end the flow as denied. */
  | 'decline'
  /** The user dismissed it: the call says the flow is pending. */
  | 'stop-waiting'
  | 'cancelled'
  | 'leaving'
  /** The client could not show it: the link goes into the tool result. */
  | 'not-shown';

export function afterElicitation(end: ElicitationEnd): AfterElicitation {
  if (end.kind === 'answered') {
    if (end.action === 'decline') return 'decline';
    return end.action === 'cancel' ? 'stop-waiting' : 'wait';
  }
  if (end.requestCancelled) return 'cancelled';
  return end.leaving ? 'leaving' : 'not-shown';
}
