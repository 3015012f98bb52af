export { createOAuthSession, type AccessTokenRequest, type OAuthSession, type SessionStatus } from './session.js';
export {
  DEFAULT_CONSENT_TIMEOUT_MS,
  MAX_CONSENT_TIMEOUT_MS,
  type OAuthSessionConfig,
} from './session-config.js';
export type { ConsentPrompt, ConsentPrompter } from './consent-prompter.js';
export { createBrowserPrompter, type BrowserPrompterOptions } from './browser-prompter.js';
export { canLaunchBrowser, launchableUrl } from './browser-url.js';
export { defaultConfigDir, APP_DIR_NAME, type ConfigDirInput } from './config-dir.js';
export {
  OAuthError,
  isOAuthError,
  pendingConsentOf,
  type OAuthErrorCode,
  type PendingConsentDetails,
} from './oauth-error.js';
export {
  BASELINE_SCOPES,
  formatScope,
  includesAll,
  missingScopes,
  parseScope,
  satisfiesAny,
  unionScopes,
} from './scopes.js';
export { consentScopes, refusedInReadOnly, NO_DOCUMENT, type ConsentRequest, type DocumentScopes, type ScopePolicy } from './consent-policy.js';
export { parseSchoolUrl, type SchoolTarget } from './school-url.js';
export type { SignedInUser } from './user-info.js';
