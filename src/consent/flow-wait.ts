/**
 * How long one call waits for a consent flow, from the call's deadline and the flow's own end.
 * Pure.
 */

export interface FlowWaitView {
  /** What is left of the call's wait. */
  readonly remainingMs: number;
  readonly flowStartedAt: number;
  /** The longest a flow can run. */
  readonly maxFlowMs: number;
  readonly now: number;
}

/** A flow ends on its own within this much past `maxFlowMs`; a wait that long hears its outcome. */
export const FLOW_END_SLACK_MS = 60_000;

export type FlowWait =
  /**
   * The call does not wait: it is told the flow is pending, and nothing else. Racing the flow
   * against a 0 ms timer would hand it the flow's own ending whenever the user's answer lands in
   * that millisecond, as if the call itself had been refused; how a flow ended is read from the
   * flow (the consent broker joins it and words the answer).
   */
  | { readonly kind: 'pending' }
  /** Wait this long for the flow, then answer that it is pending. */
  | { readonly kind: 'wait'; readonly ms: number };

export function flowWait(view: FlowWaitView): FlowWait {
  if (view.remainingMs <= 0) return { kind: 'pending' };
  // Waiting as long as the flow lives: its own outcome (approved, denied, timed out) is the answer.
  const outlivesFlow = view.remainingMs >= view.flowStartedAt + view.maxFlowMs - view.now;
  return { kind: 'wait', ms: outlivesFlow ? view.maxFlowMs + FLOW_END_SLACK_MS : view.remainingMs };
}
