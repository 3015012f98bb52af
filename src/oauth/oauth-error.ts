/**
 * The sign-in part's failures. Every one is a `SchoolMcpError` with an `OAUTH_` code and a hint;
 * some carry `details` a caller can act on (the pending consent's URL, the missing scopes).
 */
import { SchoolMcpError, type ErrorCode } from '../errors.js';

/** The sign-in part's share of the one list in src/errors.ts. */
export type OAuthErrorCode = Extract<ErrorCode, `OAUTH_${string}`>;

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
