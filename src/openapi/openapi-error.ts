import { SchoolMcpError } from '../errors.js';

/** Every failure of this part, so callers can branch on a closed set of codes. */
export type OpenApiErrorCode =
  | 'OPENAPI_FETCH_FAILED'
  | 'OPENAPI_HTTP_STATUS'
  | 'OPENAPI_REDIRECT'
  | 'OPENAPI_FOREIGN_ORIGIN'
  | 'OPENAPI_TOO_LARGE'
  | 'OPENAPI_CONTENT_TYPE'
  | 'OPENAPI_SYNTAX'
  | 'OPENAPI_NOT_AN_OBJECT'
  | 'OPENAPI_UNSUPPORTED_VERSION'
  | 'OPENAPI_UPGRADE_FAILED'
  | 'OPENAPI_FILE_UNREADABLE'
  | 'OPENAPI_CACHE_UNSAFE'
  | 'OPENAPI_EXTERNAL_REF'
  | 'OPENAPI_CYCLIC_DOCUMENT'
  | 'OPENAPI_TOO_DEEP'
  | 'OPENAPI_UNKNOWN_TOOL'
  | 'OPENAPI_UNKNOWN_TOOLSET'
  | 'OPENAPI_BAD_SCHOOL_URL';

export function openApiError(
  code: OpenApiErrorCode,
  message: string,
  hint: string,
  cause?: unknown,
): SchoolMcpError<OpenApiErrorCode> {
  return new SchoolMcpError(code, message, cause === undefined ? { hint } : { hint, cause });
}
