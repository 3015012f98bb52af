/**
 * The executor part: tool arguments become a request on the school's API origin, the answer a
 * typed outcome and a tool result. It knows nothing of how tokens are obtained (it asks an
 * `AccessTokenSource`) nor of MCP transports.
 */
export type { AccessTokenRequest, AccessTokenSource } from './access-token-source.js';
export { buildRequest, DEFAULT_MAX_UPLOAD_BYTES, MAX_PATH_VALUE_BYTES } from './build-request.js';
export type { BuildRequestOptions, PlannedRequest } from './build-request.js';
export { createExecutor } from './execute.js';
export type { ExecuteOptions, Executor, ExecutorLimits, ExecutorOptions } from './execute.js';
export type {
  CallSummary,
  ErrorOutcome,
  ExecutionOutcome,
  InsufficientScopeOutcome,
  ResponseContent,
  ResponseOutcome,
} from './execution-outcome.js';
export type { ExecutorErrorCode } from './executor-error.js';
export { DEFAULT_HTTP_LIMITS } from './http-client.js';
export type { HttpLimits } from './http-client.js';
export { DEFAULT_RETRY_POLICY } from './retry-policy.js';
export type { RetryPolicy } from './retry-policy.js';
export type { RetryClock } from './send.js';
export { MAX_RESULT_TEXT_CHARS, toToolResult } from './to-tool-result.js';
export type { ToolResultOptions } from './to-tool-result.js';
export { bearerChallenge, parseWwwAuthenticate } from './www-authenticate.js';
export type { AuthChallenge, BearerChallenge } from './www-authenticate.js';
