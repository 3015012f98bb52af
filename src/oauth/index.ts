/**
 * Sign-in at a school as an OAuth client: discovery, registration, one consent attempt (PKCE, the
 * loopback callback, the code exchange), the token store and its locks, refresh, revocation,
 * introspection. The consent part decides when and what to ask and drives this part.
 */
export { createOAuthClient } from './oauth-client.js';
export type { SessionStatus } from './session-status.js';
export {
  DEFAULT_CONSENT_TIMEOUT_MS,
  resolveClientConfig,
  type OAuthClientConfig,
  type ResolvedClientConfig,
} from './client-config.js';
export type { ConsentAttempt, ConsentResult } from './consent-attempt.js';
export { defaultConfigDir } from './config-dir.js';
export { isStale, readLock, tryAcquireLock, type LockHandle } from './file-lock.js';
export {
  OAuthError,
  consentPendingError,
  isOAuthError,
  pendingConsentOf,
  type OAuthErrorCode,
  type PendingConsentDetails,
} from './oauth-error.js';
export {
  BASELINE_SCOPES,
  includesAll,
  isScopeToken,
  missingScopes,
  normalizeScopes,
  satisfiesAny,
  scopesToCheck,
  unionScopes,
} from './scopes.js';
export { discoverIntegration, type Integration } from './integration-client.js';
export { endsGrant, toOAuthError } from './protocol-error.js';
export { loadOpenIdClient } from './openid-client-module.js';
export { parseSchoolUrl } from './school-url.js';
export type { StoreRecord, StoredClient } from './store-record.js';
export { needsRefresh, type TokenSet } from './token-set.js';
export { createTokenStore, storeFileName, type TokenStore } from './token-store.js';
