/**
 * Consent, end to end: what a consent asks for (the policy and the read-only rule), one flow per
 * school across processes, how the user is reached (URL elicitation, input-required, the
 * browser, a link), the bounded wait, and how the flow ended. The OAuth steps themselves (PKCE,
 * the callback, the code exchange) are the oauth part's; this part drives them.
 *
 * What the rest of the bridge calls: `openConversationConsent` (serving MCP, once per signed-in
 * user) and `openTerminalSignIn` (`login`, `logout`, `status`). The rest is exported for tests
 * and for a host of its own.
 */
export { openConversationConsent, openTerminalSignIn, type SignInSettings } from './open-consent.js';
export { createSignInSession, type SignInSession } from './sign-in-session.js';
export type { SignInSessionConfig } from './session-config.js';
export type { DocumentScopes } from './consent-policy.js';
export type { ConsentPrompt, ConsentPrompter } from './consent-prompter.js';
export { createBrowserPrompter, type BrowserPrompterOptions } from './browser-prompter.js';
export { canLaunchBrowser, launchableUrl } from './browser-url.js';
export { CONSENT_INPUT_KEY, createConsentCaller } from './consent-caller.js';
export type { ConsentBroker, ConsentOutcome, ConsentReach, PendingConsent } from './consent-broker.js';
export { chooseConsentChannel, definesUrlElicitation, supportsUrlElicitation } from './consent-channel.js';
export {
  consentFailedResult,
  deniedResult,
  describeScopes,
  elicitationMessage,
  leavingResult,
  pendingResult,
  type LeavingReason,
} from './consent-messages.js';
export { PROGRESS_INTERVAL_MS } from './consent-wait.js';
export { createConsentStateCodec, flowId } from './request-state.js';
export { createStepUpBudget, MAX_STEP_UPS, stepUpKey } from './step-up-budget.js';
