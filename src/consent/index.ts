/**
 * Consent, end to end: what a consent asks for (the policy and the read-only rule), one flow per
 * school across processes, how the user is reached (URL elicitation, input-required, the
 * browser, a link), the bounded wait, and how the flow ended. The OAuth steps themselves (PKCE,
 * the callback, the code exchange) are the oauth part's; this part drives them.
 *
 * What the rest of the bridge calls: `openConversationConsent` (serving MCP, once per signed-in
 * user) and `openTerminalSignIn` (`login`, `logout`, `status`). The rest serves hosted mode (the
 * `ConsentBroker` port it implements, the caller, the words and the `requestState` codec it
 * shares) and the tests of other parts that sign in through a session.
 */
export { openConversationConsent, openTerminalSignIn, type SignInSettings } from './open-consent.js';
export { createSignInSession, type SignInSession } from './sign-in-session.js';
export type { SignInSessionConfig } from './session-config.js';
export type { DocumentScopes } from './consent-policy.js';
export type { ConsentPrompt, ConsentPrompter } from './consent-prompter.js';
export { createBrowserPrompter } from './browser-prompter.js';
export { createConsentCaller } from './consent-caller.js';
export type { ConsentBroker, ConsentOutcome, ConsentReach, PendingConsent } from './consent-broker.js';
export { consentFailedResult, elicitationMessage, pendingResult, type LeavingReason } from './consent-messages.js';
export { createConsentStateCodec, flowId } from './request-state.js';
