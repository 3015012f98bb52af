export { createSandbox, startSandbox, type RecordedRequest, type RunningSandbox, type SandboxApp } from './sandbox.js';
export type { FaultOptions, SandboxOptions } from './options.js';
export type { AccessTokenInfo, AccessTokenVerifier } from './access-token.js';
export {
  AUTH_PATHS,
  completeConsent,
  obtainSandboxTokens,
  type SandboxTokens,
  type AuthFaultOptions,
  type GrantStats,
  type ConsentDecision,
  type IntegrationCredentials,
  type IntegrationRequest,
} from './auth/index.js';
export { runSandboxCommand } from './cli.js';
export { SCOPES, ALL_SCOPES, type Scope } from './scopes.js';
export { SANDBOX_SCHOOL, SANDBOX_STAFF, SANDBOX_USER, staffRoster, type StaffMember } from './school-user.js';
