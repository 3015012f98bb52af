/**
 * Hosted mode: one school-mcp for many staff members, each signed in with their own consent.
 * To MCP clients it is an OAuth 2.1 authorization server and protected resource; to the school,
 * one registered integration.
 */
export { startHostedServer } from './hosted-server.js';
export { parsePublicUrl } from './public-url.js';
export { SCHOOL_GRANTS } from './school-sign-in.js';
export { RECONNECT_ADVICE } from './shared-refresh.js';
export { stepUpStateKey } from './step-up-state-key.js';
export { resetProviderSecrets, type SecretsReset } from './provider-secrets.js';
export { drainGraceMs } from './drain.js';
export { isStoreUnavailable } from './store-outage.js';
export { callerKey } from './caller-key.js';
