/**
 * A failure below HTTP (abort, timeout, socket) as a coded executor error. Pure.
 * @see SECURITY.md NET-01, NET-02, NET-04
 */
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';

export interface FailureContext {
  /** The MCP request's signal fired. */
  readonly cancelled: boolean;
  /** The overall deadline of the attempt fired. */
  readonly deadlineExceeded: boolean;
  readonly deadlineMs: number;
}

const UNDICI_TIMEOUTS: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting',
  UND_ERR_HEADERS_TIMEOUT: 'waiting for the response headers',
  UND_ERR_BODY_TIMEOUT: 'waiting for the response body',
};

/** Socket failures where repeating an idempotent request is safe and often succeeds. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

export function toTransportError(cause: unknown, context: FailureContext): SchoolMcpError {
  if (context.cancelled) {
    return new SchoolMcpError('API_CANCELLED', 'The call was cancelled, so the request to the school was aborted.', {
      cause,
    });
  }
  if (context.deadlineExceeded) {
    return new SchoolMcpError('API_TIMEOUT', `The school did not answer completely within ${context.deadlineMs} ms.`, {
      cause,
      hint: 'Try again later, or ask for less data.',
    });
  }
  if (isSchoolMcpError(cause)) return cause;
  const code = errorCode(cause);
  const phase = code === undefined ? undefined : UNDICI_TIMEOUTS[code];
  if (phase !== undefined) {
    return new SchoolMcpError('API_TIMEOUT', `The school timed out while ${phase}.`, {
      cause,
      hint: 'Try again later.',
    });
  }
  return new SchoolMcpError('API_NETWORK_ERROR', `The school could not be reached (${code ?? 'network failure'}).`, {
    cause,
    hint: 'Check the connection and the school URL, then try again.',
  });
}

/** True for a network error whose cause is a transient socket failure (NET-04). */
export function isTransientNetworkError(error: SchoolMcpError): boolean {
  if (error.code !== 'API_NETWORK_ERROR') return false;
  const code = errorCode(error.cause);
  return code !== undefined && TRANSIENT_CODES.has(code);
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null | undefined)?.cause;
  return cause === undefined || cause === error ? undefined : errorCode(cause);
}
