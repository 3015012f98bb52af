/**
 * What a consent call does once the flow it waited for ended: done, or another flow for more.
 * Pure.
 */
import { includesAll, scopesToCheck, unionScopes } from '../oauth/index.js';

export interface SettledFlowView {
  /** What the call wants. */
  readonly wanted: readonly string[];
  /** What the flow asked for. */
  readonly flowScopes: readonly string[];
  /** How the flow ended: the tokens it stored, or over without anything this call can use. */
  readonly ended: { readonly kind: 'tokens'; readonly scopes: readonly string[] } | { readonly kind: 'left-nothing' };
}

export type FlowFollowUp =
  | { readonly kind: 'done' }
  /** Open (or join) a flow for these scopes. */
  | { readonly kind: 'consent'; readonly scopes: readonly string[] };

export function flowFollowUp(view: SettledFlowView): FlowFollowUp {
  // Another process's flow ended without a result to use: try again, maybe running the flow here.
  if (view.ended.kind === 'left-nothing') return { kind: 'consent', scopes: view.wanted };
  if (includesAll(view.ended.scopes, scopesToCheck(view.wanted)) || includesAll(view.flowScopes, view.wanted))
    return { kind: 'done' };
  // That flow asked for less: the next one asks for what it granted plus what we need.
  return { kind: 'consent', scopes: unionScopes(view.ended.scopes, view.wanted) };
}
