import { SchoolMcpError, type ErrorCode } from '../errors.js';

/** This part's share of the one list in src/errors.ts, so callers can branch on a closed set of codes. */
export type OpenApiErrorCode = Extract<ErrorCode, `OPENAPI_${string}`>;

export function openApiError(
  code: OpenApiErrorCode,
  message: string,
  hint: string,
  cause?: unknown,
): SchoolMcpError<OpenApiErrorCode> {
  return new SchoolMcpError(code, message, cause === undefined ? { hint } : { hint, cause });
}
