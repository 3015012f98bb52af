/**
 * Turns what openid-client (and the network below it) throws into `OAuthError`s with a code and a
 * hint. The server's `error` and `error_description` are attacker-influenced: only their RFC 6749
 * §5.2 forms (or "malformed error") are quoted, and the description stays out of messages.
 * @see SECURITY.md ERR-05
 */
import type * as client from 'openid-client';
import { loadedOpenIdClient } from './openid-client-module.js';
import { errorCodeText, errorDescriptionText } from '../school-text/index.js';
import { OAuthError, isOAuthError } from './oauth-error.js';

export type ProtocolStep =
  | 'discovery'
  | 'registration'
  | 'token'
  | 'refresh'
  | 'revocation'
  | 'userinfo'
  | 'introspection';

const STEP_NAMES: Record<ProtocolStep, string> = {
  discovery: 'reading the school metadata',
  registration: 'registering with the school',
  token: 'exchanging the authorization code',
  refresh: 'refreshing the access token',
  revocation: 'revoking the tokens',
  userinfo: 'reading the signed-in user',
  introspection: 'checking the access token with the school',
};

function findOAuthError(error: unknown): OAuthError | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 8; depth += 1) {
    if (isOAuthError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The OAuth `error` code of a server's error response (RFC 6749 §5.2), if that is what this is. */
export function oauthErrorCodeOf(error: unknown): string | undefined {
  const oidc = loadedOpenIdClient();
  return oidc && error instanceof oidc.ResponseBodyError ? error.error : undefined;
}

/**
 * RF-05/RF-06: a refresh the school answered `invalid_grant` (the grant expired, was revoked, or a
 * rotated refresh token came back) or `invalid_client` (it forgot the client) can never succeed
 * again; any other failure may pass, and the grant is kept for the next attempt.
 */
export function endsGrant(error: unknown): boolean {
  const code = oauthErrorCodeOf(error);
  return code === 'invalid_grant' || code === 'invalid_client';
}

export function toOAuthError(error: unknown, step: ProtocolStep): OAuthError {
  const oidc = loadedOpenIdClient();
  const inner = findOAuthError(error);
  if (inner) return inner;
  const doing = STEP_NAMES[step];
  if (oidc && error instanceof oidc.ResponseBodyError) {
    const said = errorCodeText(error.error) ?? 'no error code';
    const details = { error: said, status: error.status, description: errorDescriptionText(error.error_description) };
    if (error.status >= 500) {
      return new OAuthError('OAUTH_SERVER_ERROR', `The school failed while ${doing} (HTTP ${error.status}).`, {
        cause: error,
        hint: 'This is on the school side; try again in a moment.',
        details,
      });
    }
    if (error.error === 'invalid_target') {
      return new OAuthError('OAUTH_INVALID_TARGET', `The school refused the API resource indicator while ${doing}.`, {
        cause: error,
        hint: 'The school does not accept its own advertised resource; contact the school.',
        details,
      });
    }
    if (step === 'registration' && error.error === 'invalid_redirect_uri') {
      return new OAuthError(
        'OAUTH_REDIRECT_URI_REJECTED',
        'The school refused the loopback redirect address at registration.',
        {
          cause: error,
          hint: 'This school does not accept loopback redirects (http://127.0.0.1:<port>/callback); use a pre-registered client id.',
          details,
        },
      );
    }
    const code =
      step === 'registration'
        ? 'OAUTH_REGISTRATION_FAILED'
        : step === 'refresh'
          ? 'OAUTH_REFRESH_FAILED'
          : step === 'token'
            ? 'OAUTH_TOKEN_EXCHANGE_FAILED'
            : 'OAUTH_AUTHORIZATION_FAILED';
    return new OAuthError(code, `The school answered ${said} while ${doing}.`, {
      cause: error,
      hint:
        step === 'token'
          ? 'Start the sign-in again.'
          : 'Try again; if it keeps failing, sign in again with `school-mcp login`.',
      details,
    });
  }
  if (oidc && error instanceof oidc.ClientError) {
    const status = statusOf(error);
    if (status !== undefined && status >= 500) {
      return new OAuthError('OAUTH_SERVER_ERROR', `The school failed while ${doing} (HTTP ${status}).`, {
        cause: error,
        hint: 'This is on the school side; try again in a moment.',
        details: { status },
      });
    }
    if (error.code === 'OAUTH_TIMEOUT') {
      return new OAuthError('OAUTH_NETWORK', `The school did not answer in time while ${doing}.`, {
        cause: error,
        hint: 'Check the network connection and try again.',
      });
    }
    if (error.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && step === 'discovery') {
      return new OAuthError('OAUTH_ISSUER_MISMATCH', "The school's metadata names another issuer.", {
        cause: error,
        hint: 'Check the --school URL; if it is right, the school is misconfigured or being impersonated.',
      });
    }
    if (step === 'discovery') return discoveryFailed(error, doing, status);
    const code =
      step === 'token'
        ? 'OAUTH_INVALID_TOKEN_RESPONSE'
        : step === 'refresh'
          ? 'OAUTH_REFRESH_FAILED'
          : step === 'registration'
            ? 'OAUTH_REGISTRATION_FAILED'
            : 'OAUTH_AUTHORIZATION_FAILED';
    return new OAuthError(
      code,
      `The school's answer could not be used while ${doing}${status ? ` (HTTP ${status})` : ''}.`,
      {
        cause: error,
        hint: 'Try again; if it keeps failing, the school is misconfigured.',
        details: { reason: error.code ?? 'invalid response', ...(status ? { status } : {}) },
      },
    );
  }
  if (oidc && error instanceof oidc.WWWAuthenticateChallengeError) {
    return new OAuthError(
      step === 'refresh' ? 'OAUTH_REFRESH_FAILED' : 'OAUTH_AUTHORIZATION_FAILED',
      `The school challenged the request while ${doing} (HTTP ${error.status}).`,
      {
        cause: error,
        hint: 'Sign in again with `school-mcp login`.',
      },
    );
  }
  return new OAuthError('OAUTH_NETWORK', `Something went wrong while ${doing}.`, {
    cause: error,
    hint: 'Check the network connection and try again.',
  });
}

function discoveryFailed(error: client.ClientError, doing: string, status?: number): OAuthError {
  const notJson =
    error.code === 'OAUTH_RESPONSE_IS_NOT_JSON' ||
    error.code === 'OAUTH_PARSE_ERROR' ||
    error.code === 'OAUTH_INVALID_RESPONSE';
  return new OAuthError(
    notJson ? 'OAUTH_INVALID_METADATA' : 'OAUTH_DISCOVERY_FAILED',
    `The school's metadata could not be used while ${doing}${status ? ` (HTTP ${status})` : ''}.`,
    {
      cause: error,
      hint: 'Check the --school URL: it must be the base address of the school, which publishes /.well-known/oauth-authorization-server.',
      details: { reason: error.code ?? 'invalid response', ...(status ? { status } : {}) },
    },
  );
}

function statusOf(error: client.ClientError): number | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Response) return cause.status;
  return undefined;
}
