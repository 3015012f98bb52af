/**
 * The wire errors of the authorization server. The class carries the RFC 6749 §5.2 code, the
 * human-readable description and the HTTP status, so an endpoint throws and one place answers.
 */
import { jsonResponse } from './responses.js';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'server_error';

const DEFAULT_STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  // RFC 6749 §5.2: 401 for a failed client authentication.
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  access_denied: 403,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  server_error: 500,
};

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. `WWW-Authenticate` for a client that tried HTTP authentication. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    error: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = options.status ?? DEFAULT_STATUS[error];
    this.headers = options.headers ?? {};
  }

  /** The RFC 6749 §5.2 body. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }

  toResponse(): Response {
    return jsonResponse(this.toJSON(), { status: this.status, headers: this.headers });
  }
}

/** Runs an endpoint and turns a thrown `OAuthError` into its JSON answer. */
export async function answerOAuthErrors(run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) return error.toResponse();
    throw error;
  }
}
