/**
 * The error base of the bridge. Every failure that can reach a user or an agent carries a stable
 * `code` (SCREAMING_SNAKE with an area prefix, e.g. `OAUTH_ISSUER_MISMATCH`) so that callers branch
 * on codes, never on messages, and a `hint` that says what to do next.
 *
 * `errorCodes` is the one list: a code, once shipped, keeps its meaning, and docs/errors.md's
 * table names every code with its next step (test/errors/error-codes.test.ts holds the two together).
 */
export const errorCodes = [
  // Command line and configuration
  /** A flag, environment variable or command word was refused; exits with the usage code 2. */
  'CONFIG_INVALID',

  // Installation
  /** A feature needs a package a plain install leaves out (src/optional-packages.ts); the hint is the command that installs it. */
  'OPTIONAL_PACKAGE_MISSING',

  // HTTP transport (serve over HTTP)
  /** The bind address or port is not allowed without the flag that accepts the risk. */
  'HTTP_BIND_REFUSED',
  /** An --allowed-host entry is not a host name with an optional port. */
  'HTTP_HOST_INVALID',
  /** An --allowed-origin entry is not an origin (scheme, host, optional port). */
  'HTTP_ORIGIN_INVALID',
  /** The HTTP listener could not be opened (address in use, permission). */
  'HTTP_LISTEN_FAILED',

  // OpenAPI document (loading and selecting tools)
  /** The document could not be fetched: connection refused, DNS, TLS, timeout. */
  'OPENAPI_FETCH_FAILED',
  /** The document URL answered with an error status. */
  'OPENAPI_HTTP_STATUS',
  /** The document URL redirected; redirects are not followed. */
  'OPENAPI_REDIRECT',
  /** The document URL is on another origin than the school. */
  'OPENAPI_FOREIGN_ORIGIN',
  /** The document is larger than the size or node cap. */
  'OPENAPI_TOO_LARGE',
  /** The answer is not JSON or YAML, e.g. an HTML login page. */
  'OPENAPI_CONTENT_TYPE',
  /** The document is not valid JSON or YAML. */
  'OPENAPI_SYNTAX',
  /** The document parses but is not an object. */
  'OPENAPI_NOT_AN_OBJECT',
  /** Neither Swagger 2.0 nor OpenAPI 3.0 or 3.1. */
  'OPENAPI_UNSUPPORTED_VERSION',
  /** A Swagger 2.0 document could not be upgraded to OpenAPI 3. */
  'OPENAPI_UPGRADE_FAILED',
  /** The --openapi file could not be read. */
  'OPENAPI_FILE_UNREADABLE',
  /** The document cache directory is not private to the user. */
  'OPENAPI_CACHE_UNSAFE',
  /** A `$ref` points outside the document; only local `#/...` references are followed. */
  'OPENAPI_EXTERNAL_REF',
  /** A recursive YAML alias makes the document infinite. */
  'OPENAPI_CYCLIC_DOCUMENT',
  /** The document nests deeper than any API description needs. */
  'OPENAPI_TOO_DEEP',
  /** A tool name given in an option does not exist in the document. */
  'OPENAPI_UNKNOWN_TOOL',
  /** A toolset name given in an option does not exist in the document. */
  'OPENAPI_UNKNOWN_TOOLSET',
  /** The school URL the document is loaded from is not usable. */
  'OPENAPI_BAD_SCHOOL_URL',

  // Sign-in (OAuth)
  /** The --school URL is not an https origin (or a loopback http one). */
  'OAUTH_INVALID_SCHOOL_URL',
  /** The sign-in settings contradict each other (e.g. a non-loopback redirect host). */
  'OAUTH_INVALID_CONFIG',
  /** The school's authorization server metadata could not be fetched or used. */
  'OAUTH_DISCOVERY_FAILED',
  /** The metadata names another issuer than the one asked for (RFC 8414 section 3.3). */
  'OAUTH_ISSUER_MISMATCH',
  /** The metadata is malformed or names endpoints this client cannot trust. */
  'OAUTH_INVALID_METADATA',
  /** The school does not offer PKCE with S256 (RFC 7636). */
  'OAUTH_PKCE_UNSUPPORTED',
  /** An OAuth endpoint answered with a redirect, which is never followed. */
  'OAUTH_UNEXPECTED_REDIRECT',
  /** An OAuth endpoint answered with more than the size cap. */
  'OAUTH_RESPONSE_TOO_LARGE',
  /** Dynamic client registration failed or answered something not asked for (RFC 7591). */
  'OAUTH_REGISTRATION_FAILED',
  /** The school refused the loopback redirect address at registration. */
  'OAUTH_REDIRECT_URI_REJECTED',
  /** The fixed callback port is taken by another program. */
  'OAUTH_CALLBACK_PORT_BUSY',
  /** No loopback address could be bound for the callback. */
  'OAUTH_CALLBACK_UNAVAILABLE',
  /** Approval in the browser is still pending; the flow stays open. */
  'OAUTH_CONSENT_PENDING',
  /** The user did not finish the approval in time. */
  'OAUTH_CONSENT_TIMEOUT',
  /** The user declined in the browser. */
  'OAUTH_ACCESS_DENIED',
  /** The school refused the authorization request, or the approval failed unexpectedly. */
  'OAUTH_AUTHORIZATION_FAILED',
  /** The callback did not match the request (state, issuer, missing code). */
  'OAUTH_CALLBACK_REJECTED',
  /** The authorization code could not be exchanged for tokens. */
  'OAUTH_TOKEN_EXCHANGE_FAILED',
  /** The token response is malformed or not what was asked for. */
  'OAUTH_INVALID_TOKEN_RESPONSE',
  /** The refresh token was refused; a new sign-in is needed. */
  'OAUTH_REFRESH_FAILED',
  /** No usable sign-in is stored and none may be started here. */
  'OAUTH_SIGN_IN_REQUIRED',
  /** The user approved fewer scopes than the operation needs. */
  'OAUTH_SCOPE_NOT_GRANTED',
  /** The scopes needed are not read scopes and --read-only forbids asking for them. */
  'OAUTH_READ_ONLY',
  /** The school refused its own advertised resource indicator (RFC 8707). */
  'OAUTH_INVALID_TARGET',
  /** The school could not be reached during sign-in. */
  'OAUTH_NETWORK',
  /** The school's OAuth server failed (server_error, temporarily_unavailable, 5xx). */
  'OAUTH_SERVER_ERROR',
  /** The token store file is not private to the user (owner, mode, symlink). */
  'OAUTH_STORE_UNSAFE',
  /** The token store could not be written. */
  'OAUTH_STORE_WRITE_FAILED',
  /** Another school-mcp process held the store lock for too long. */
  'OAUTH_LOCK_TIMEOUT',
  /** The authorization URL to open in the browser is not the school's endpoint. */
  'OAUTH_BROWSER_URL_REJECTED',
  /** The request was cancelled while signing in or refreshing. */
  'OAUTH_ABORTED',
  /** The sign-in session was closed (shutdown). */
  'OAUTH_CLOSED',

  // Hosted mode (people connecting over the network)
  /** Someone other than the person a step-up link was made for signed in at the school with it; nothing was granted (HOST-60). */
  'HOSTED_STEP_UP_OTHER_PERSON',

  // Hosted mode's grant store
  /** The store key is missing, not base64, or not 32 bytes. */
  'STORE_KEY_INVALID',
  /** The store directory, a record or the key file is not private to the user (owner, mode, symlink). */
  'STORE_UNSAFE',
  /** A record could not be written or removed. */
  'STORE_WRITE_FAILED',
  /** A record was sealed with a key that is not among the store keys. */
  'STORE_RECORD_UNREADABLE',
  /** The shared store (Redis) did not answer within its timeout: down, unreachable or refusing the password. */
  'STORE_UNAVAILABLE',
  /** Another instance kept a lock of the store for longer than a caller may wait. */
  'STORE_LOCK_TIMEOUT',

  // School API calls (the executor)
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

export type ErrorCode = (typeof errorCodes)[number];

/**
 * The one way to build an error is `new SchoolMcpError(code, message, { hint, cause })` (or a
 * subclass adding what its callers read, like `OAuthError`'s details), and a function returning one
 * exists only when it is named for the situation and fixes that situation's wording or hint
 * (`inputError`, `storeUnavailable`), never to pass a code and a message along. A part whose callers
 * branch on its codes names them as a type (`ExecutorErrorCode`).
 */
export class SchoolMcpError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly code: Code;
  /** What the user or agent can do about it, in one sentence. */
  readonly hint: string | undefined;

  constructor(code: Code, message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SchoolMcpError';
    this.code = code;
    this.hint = options.hint;
  }
}

export function isSchoolMcpError(value: unknown): value is SchoolMcpError {
  return value instanceof SchoolMcpError;
}
