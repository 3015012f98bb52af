import { SchoolMcpError } from '../errors.js';

/**
 * The stable codes of every executor failure. Agents and the server branch on these, never on
 * message text, so a code, once shipped, keeps its meaning.
 */
export const executorErrorCodes = [
  /** Tool arguments refused before anything was sent (API-03, API-05, bad base64, ...). */
  'API_INPUT_INVALID',
  /** The built URL left the API origin or base path, or the URL parser changed it (API-02, API-03). */
  'API_URL_REFUSED',
  /** A request carrying a bearer token aimed at another origin (API-01). */
  'API_TOKEN_ORIGIN_REFUSED',
  /** No complete answer within the connect, header, body or overall deadline (NET-01). */
  'API_TIMEOUT',
  /** The MCP request was cancelled, so the upstream request was aborted (NET-02). */
  'API_CANCELLED',
  /** Connection refused, reset, DNS failure, TLS failure. */
  'API_NETWORK_ERROR',
  /** The API answered with a redirect, which is never followed with a token (API-06). */
  'API_REDIRECT_REFUSED',
  /** The response body exceeded the size cap after decompression (NET-03). */
  'API_RESPONSE_TOO_LARGE',
  /** The body could not be decoded (unknown or corrupt content encoding). */
  'API_RESPONSE_UNREADABLE',
  /** A success status with a body that is not data, e.g. an HTML login page (ERR-04). */
  'API_UNEXPECTED_CONTENT',
  /** The API answered with an error status. */
  'API_HTTP_ERROR',
  /** The token was rejected again after one refresh (ERR-02). */
  'API_UNAUTHORIZED',
  /** The token lacks a scope the operation needs (ERR-03). */
  'API_INSUFFICIENT_SCOPE',
  /** 429, or 503 with a `Retry-After` beyond what is worth waiting for (NET-04). */
  'API_RATE_LIMITED',
  /** The token source failed without a code of its own. */
  'API_SIGN_IN_FAILED',
] as const;

export type ExecutorErrorCode = (typeof executorErrorCodes)[number];

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
