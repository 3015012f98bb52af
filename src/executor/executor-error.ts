import { SchoolMcpError, type ErrorCode } from '../errors.js';

/** The executor's share of the one list in src/errors.ts. */
export type ExecutorErrorCode = Extract<ErrorCode, `API_${string}`>;

export function executorError(
  code: ExecutorErrorCode,
  message: string,
  options: { hint?: string; cause?: unknown } = {},
): SchoolMcpError<ExecutorErrorCode> {
  return new SchoolMcpError(code, message, options);
}

/** Arguments refused before anything is sent: the agent can fix these itself. */
export function inputError(message: string): SchoolMcpError<ExecutorErrorCode> {
  return executorError('API_INPUT_INVALID', message, { hint: 'Fix the named argument and call the tool again.' });
}
