/**
 * What a consent-aware call does with the outcome of one run of its operation: answer with it,
 * step up for the scopes the school challenged, or reach the user for the consent the sign-in
 * waits for. Pure.
 */
import type { ExecutionOutcome } from '../executor/index.js';
import type { PendingConsent } from './consent-broker.js';
import { stepUpKey } from './step-up-budget.js';

export interface ConsentStepView {
  readonly toolName: string;
  readonly outcome: ExecutionOutcome;
  /** The consent the sign-in waits for, when that is why the run failed (`ConsentBroker.pendingOf`). */
  readonly pending: PendingConsent | undefined;
}

export type ConsentStep =
  /** The outcome is the answer; a success also settles the step-ups that led to it (ERR-03). */
  | { readonly kind: 'answer'; readonly settlesStepUps: boolean }
  /** RFC 6750 §3.1 `insufficient_scope`: ask for these scopes, counted under `key` (ERR-03). */
  | { readonly kind: 'step-up'; readonly scopes: readonly string[]; readonly key: string }
  | { readonly kind: 'reach-user'; readonly consent: PendingConsent };

export function nextConsentStep(view: ConsentStepView): ConsentStep {
  const { outcome } = view;
  if (outcome.kind === 'insufficient_scope')
    return {
      kind: 'step-up',
      scopes: outcome.requiredScopes,
      key: stepUpKey(view.toolName, outcome.requiredScopes),
    };
  if (outcome.kind === 'error' && view.pending !== undefined) return { kind: 'reach-user', consent: view.pending };
  return { kind: 'answer', settlesStepUps: outcome.kind === 'response' && outcome.status < 400 };
}
