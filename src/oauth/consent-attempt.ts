/**
 * One consent attempt: bind the listener, make sure the client is registered for its redirect
 * URI, build the authorization URL with a fresh PKCE S256 pair and state (AZ-01, AZ-02), wait for
 * the callback or the timeout, and exchange the code exactly once (TK-03) with the same
 * `resource` (AZ-05).
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import type { SchoolMetadata } from './discovery.js';
import { startCallbackListener, type CallbackListener, type CallbackOutcome } from './loopback-listener.js';
import { assertPkceS256 } from './metadata.js';
import { OAuthError, isOAuthError } from './oauth-error.js';
import { oauthErrorCodeOf, toOAuthError } from './protocol-error.js';
import { clientConfiguration } from './registration.js';
import { formatScope } from './scopes.js';
import type { FetchLike } from '../network/index.js';
import type { SchoolTarget } from './school-url.js';
import type { StoredClient } from './store-record.js';
import { tokenSetFromResponse, type TokenSet } from './token-set.js';

export interface ConsentAttemptInput {
  target: SchoolTarget;
  metadata: SchoolMetadata;
  fetch: FetchLike;
  logger: Logger;
  now: () => number;
  scopes: string[];
  timeoutMs: number;
  /** The port to try first (configured, or the stored registration's). */
  preferredPort?: number;
  /** A configured port is a promise to the school: never fall back from it (LB-03b). */
  portIsFixed: boolean;
  /** Returns a client valid for this redirect URI, registering one when needed. */
  clientFor(redirectUri: string): Promise<StoredClient>;
}

export interface ConsentResult {
  tokens: TokenSet;
  client: StoredClient;
}

export interface ConsentAttempt {
  readonly url: string;
  readonly scopes: string[];
  readonly startedAt: number;
  readonly client: StoredClient;
  /**
   * Settles once the browser came back to the listener (or the listener closed): from then on the
   * link is dead, while `result` may still be exchanging the code.
   */
  readonly answered: Promise<void>;
  readonly result: Promise<ConsentResult>;
  cancel(error: OAuthError): void;
}

/** Fixed messages per RFC 6749 §4.1.2.1 code; the school's `error_description` is never shown. */
const AUTHORIZATION_ERRORS: Record<string, string> = {
  invalid_request: 'The school refused the sign-in request as malformed.',
  unauthorized_client: 'The school does not allow this client to sign in.',
  unsupported_response_type: 'The school does not support this kind of sign-in.',
  invalid_scope: 'The school refused the requested permissions.',
  server_error: 'The school failed during sign-in.',
  temporarily_unavailable: 'The school is temporarily unable to sign you in.',
  invalid_client: 'The school no longer knows this client registration.',
};

export async function startConsentAttempt(input: ConsentAttemptInput): Promise<ConsentAttempt> {
  assertPkceS256(input.metadata.server);
  const listener = await bindListener(input);
  try {
    const stored = await input.clientFor(listener.redirectUri);
    const oidc = await loadOpenIdClient();
    const config = await clientConfiguration(input, stored);
    const verifier = oidc.randomPKCECodeVerifier();
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    const state = oidc.randomState();
    input.logger.redact(verifier, 'rotating');
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: listener.redirectUri,
      scope: formatScope(input.scopes),
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      resource: input.metadata.resource,
    });
    listener.expect({
      issuer: input.metadata.issuer,
      state,
      issRequired: input.metadata.server.authorization_response_iss_parameter_supported === true,
    });
    let cancel!: (error: OAuthError) => void;
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
    });
    // A cancel after the attempt settled has nobody to tell.
    cancelled.catch(() => undefined);
    const result = runAttempt(input, listener, config, stored, { verifier, state }, cancelled);
    const answered = listener.outcome.then(() => undefined);
    return {
      url: url.href,
      scopes: [...input.scopes],
      startedAt: input.now(),
      client: stored,
      answered,
      result,
      cancel,
    };
  } catch (error) {
    await listener.close();
    throw error;
  }
}

async function bindListener(input: ConsentAttemptInput): Promise<CallbackListener> {
  try {
    return await startCallbackListener({ port: input.preferredPort ?? 0, logger: input.logger });
  } catch (error) {
    if (!isOAuthError(error, 'OAUTH_CALLBACK_PORT_BUSY') || input.portIsFixed || !input.preferredPort) throw error;
    input.logger.info('the registered callback port is busy; using another one', { port: input.preferredPort });
    return startCallbackListener({ port: 0, logger: input.logger });
  }
}

async function runAttempt(
  input: ConsentAttemptInput,
  listener: CallbackListener,
  config: client.Configuration,
  stored: StoredClient,
  checks: { verifier: string; state: string },
  cancelled: Promise<never>,
): Promise<ConsentResult> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new OAuthError(
            'OAUTH_CONSENT_TIMEOUT',
            `The sign-in was not completed within ${Math.round(input.timeoutMs / 1000)} s.`,
            {
              hint: 'Start the sign-in again and approve it in the browser.',
            },
          ),
        ),
      input.timeoutMs,
    );
  });
  let outcome: CallbackOutcome;
  try {
    outcome = await Promise.race([listener.outcome, timedOut, cancelled]);
  } finally {
    clearTimeout(timer);
    await listener.close();
  }
  if (outcome.kind === 'error') throw authorizationError(outcome.error);
  if (outcome.kind === 'fail') {
    throw new OAuthError(
      'OAUTH_CALLBACK_REJECTED',
      `The sign-in response was refused (${outcome.reason}); no code was exchanged.`,
      {
        hint: 'Start the sign-in again; if it keeps failing, something is interfering with the sign-in.',
        details: { reason: outcome.reason },
      },
    );
  }
  let response: client.TokenEndpointResponse;
  try {
    response = await (
      await loadOpenIdClient()
    ).authorizationCodeGrant(
      config,
      outcome.callbackUrl,
      { pkceCodeVerifier: checks.verifier, expectedState: checks.state },
      { resource: input.metadata.resource },
    );
  } catch (error) {
    const mapped = toOAuthError(error, 'token');
    if (oauthErrorCodeOf(error) === 'invalid_client') {
      throw new OAuthError(mapped.code, mapped.message, {
        cause: error,
        hint: mapped.hint ?? '',
        details: { ...mapped.details, invalidClient: true },
      });
    }
    throw mapped;
  }
  const tokens = tokenSetFromResponse(response as unknown as Record<string, unknown>, {
    requestedScopes: input.scopes,
    resource: input.metadata.resource,
    clientId: stored.clientId,
    now: input.now(),
  });
  return { tokens, client: stored };
}

function authorizationError(error: string): OAuthError {
  if (error === 'access_denied') {
    return new OAuthError('OAUTH_ACCESS_DENIED', 'The sign-in was not approved in the browser.', {
      hint: 'Nothing was granted. Ask again when you want to approve it.',
    });
  }
  const known = Object.hasOwn(AUTHORIZATION_ERRORS, error);
  return new OAuthError(
    'OAUTH_AUTHORIZATION_FAILED',
    known ? AUTHORIZATION_ERRORS[error]! : 'The school refused the sign-in.',
    {
      hint: 'Start the sign-in again; if it keeps failing, contact the school.',
      details: {
        error: known ? error : 'unknown',
        ...(error === 'invalid_client' || error === 'unauthorized_client' ? { invalidClient: true } : {}),
      },
    },
  );
}
