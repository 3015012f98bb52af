import { SchoolMcpError, type ErrorCode } from '../errors.js';

/** The executor's share of the one list in src/errors.ts. */
export type ExecutorErrorCode = Extract<ErrorCode, `API_${string}`>;

/** Arguments refused before anything is sent: the agent can fix these itself. */
export function inputError(message: string): SchoolMcpError<'API_INPUT_INVALID'> {
  return new SchoolMcpError('API_INPUT_INVALID', message, { hint: 'Fix the named argument and call the tool again.' });
}
