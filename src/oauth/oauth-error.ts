/**
 * The sign-in part's failures. Every one is a `SchoolMcpError` with an `OAUTH_` code and a hint;
 * some carry `details` a caller can act on (the pending consent's URL, the missing scopes).
 */
import { SchoolMcpError } from '../errors.js';

export type OAuthErrorCode =
  | 'OAUTH_INVALID_SCHOOL_URL'
  | 'OAUTH_INVALID_CONFIG'
  | 'OAUTH_DISCOVERY_FAILED'
  | 'OAUTH_ISSUER_MISMATCH'
  | 'OAUTH_INVALID_METADATA'
  | 'OAUTH_PKCE_UNSUPPORTED'
  | 'OAUTH_UNEXPECTED_REDIRECT'
  | 'OAUTH_RESPONSE_TOO_LARGE'
  | 'OAUTH_REGISTRATION_FAILED'
  | 'OAUTH_REDIRECT_URI_REJECTED'
  | 'OAUTH_CALLBACK_PORT_BUSY'
  | 'OAUTH_CALLBACK_UNAVAILABLE'
  | 'OAUTH_CONSENT_PENDING'
  | 'OAUTH_CONSENT_TIMEOUT'
  | 'OAUTH_ACCESS_DENIED'
  | 'OAUTH_AUTHORIZATION_FAILED'
  | 'OAUTH_CALLBACK_REJECTED'
  | 'OAUTH_TOKEN_EXCHANGE_FAILED'
  | 'OAUTH_INVALID_TOKEN_RESPONSE'
  | 'OAUTH_REFRESH_FAILED'
  | 'OAUTH_SIGN_IN_REQUIRED'
  | 'OAUTH_SCOPE_NOT_GRANTED'
  | 'OAUTH_READ_ONLY'
  | 'OAUTH_INVALID_TARGET'
  | 'OAUTH_NETWORK'
  | 'OAUTH_SERVER_ERROR'
  | 'OAUTH_STORE_UNSAFE'
  | 'OAUTH_STORE_WRITE_FAILED'
  | 'OAUTH_LOCK_TIMEOUT'
  | 'OAUTH_BROWSER_URL_REJECTED'
  | 'OAUTH_ABORTED'
  | 'OAUTH_CLOSED';

export interface PendingConsentDetails {
  url: string;
  scopes: string[];
  startedAt: number;
}

export class OAuthError extends SchoolMcpError<OAuthErrorCode> {
  /** Machine-readable facts for the caller, never secrets. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: OAuthErrorCode,
    message: string,
    options: { cause?: unknown; hint?: string; details?: Record<string, unknown> } = {},
  ) {
    super(code, message, options);
    this.name = 'OAuthError';
    this.details = options.details;
  }
}

export function isOAuthError(value: unknown, code?: OAuthErrorCode): value is OAuthError {
  return value instanceof OAuthError && (code === undefined || value.code === code);
}

/** The error a waiting call gets when the user has not finished yet; the flow stays open. */
export function consentPendingError(pending: PendingConsentDetails): OAuthError {
  return new OAuthError('OAUTH_CONSENT_PENDING', 'Approval in the browser is still pending.', {
    hint: `Open ${pending.url} to approve (${pending.scopes.join(' ')}); the same request can then be retried.`,
    details: { url: pending.url, scopes: [...pending.scopes], startedAt: pending.startedAt },
  });
}

/** Reads the pending consent back from an error, for the MCP layer. */
export function pendingConsentOf(error: unknown): PendingConsentDetails | undefined {
  if (!isOAuthError(error, 'OAUTH_CONSENT_PENDING') || !error.details) return undefined;
  const { url, scopes, startedAt } = error.details;
  if (typeof url !== 'string' || !Array.isArray(scopes) || typeof startedAt !== 'number') return undefined;
  return { url, scopes: scopes.filter((scope): scope is string => typeof scope === 'string'), startedAt };
}
