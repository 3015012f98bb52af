/**
 * Re-consent inside the conversation: a missing permission becomes a prompt to the user (URL
 * elicitation, the browser, or a link in the result), then the call goes on.
 */
export type { ClientConnection } from './client-connection.js';
export { clientConnectionOf } from './client-connection.js';
export { CONSENT_INPUT_KEY, createConsentCaller, type ConsentCallerOptions } from './consent-caller.js';
export type { ConsentBroker, ConsentOutcome, PendingConsent } from './consent-broker.js';
export { chooseConsentChannel, definesUrlElicitation, supportsUrlElicitation, type ChannelInput, type ConsentChannel, type ProtocolEra } from './consent-channel.js';
export {
  consentFailedResult,
  deniedResult,
  describeScopes,
  elicitationMessage,
  leavingResult,
  pendingResult,
  stepUpExhaustedResult,
  type ConsentWording,
  type LeavingReason,
} from './consent-messages.js';
export { PROGRESS_INTERVAL_MS, progressReporter, waitForConsent, type WaitOptions, type WaitResult } from './consent-wait.js';
export { createConsentStateCodec, flowId, type ConsentState, type ConsentStateCodec } from './request-state.js';
export { createStepUpBudget, MAX_STEP_UPS, stepUpKey, type StepUpBudget } from './step-up-budget.js';
