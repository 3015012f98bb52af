/**
 * The executor part: tool arguments become a request on the school's API origin, the answer a
 * typed outcome and a tool result. It knows nothing of how tokens are obtained (it asks an
 * `AccessTokenSource`) nor of MCP transports.
 */
export type { AccessTokenSource } from './access-token-source.js';
export { createExecutor } from './execute.js';
export type { Executor } from './execute.js';
export type { ExecutionOutcome } from './execution-outcome.js';
export { MAX_RESULT_TEXT_CHARS, toToolResult } from './to-tool-result.js';
