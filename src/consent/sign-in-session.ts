/**
 * The sign-in session: "a valid access token with these scopes", asking the user when needed.
 * The OAuth client (oauth part) holds the tokens and runs one attempt; this decides what a
 * consent asks for (the policy, the read-only rule), runs one flow per school across processes
 * (the coordinator), and checks that what came back is enough. It knows nothing of MCP; the
 * prompter it is given reaches the user.
 */
import { quotableScopes } from '../school-text/index.js';
import {
  createOAuthClient,
  missingScopes,
  needsRefresh,
  OAuthError,
  satisfiesAny,
  scopesToCheck,
  type SessionStatus,
} from '../oauth/index.js';
import { createConsentCoordinator } from './consent-coordinator.js';
import { consentScopes, refusedInReadOnly } from './consent-policy.js';
import { resolveSessionConfig, type SignInSessionConfig } from './session-config.js';

interface AccessTokenRequest {
  /** Any one of these sets, wholly granted, is enough. Empty: any valid token will do. */
  scopeAlternatives: readonly (readonly string[])[];
  /** What to ask for when consent is needed. */
  requiredScopes: readonly string[];
  signal?: AbortSignal;
  /** How long to wait for the user (default: the flow's timeout). */
  waitMs?: number;
}

export interface SignInSession {
  accessToken(request: AccessTokenRequest): Promise<string>;
  /** `waitMs` bounds the wait for consent when the refresh is refused (default: the flow's timeout). */
  refreshAfterRejection(rejectedToken: string, signal?: AbortSignal, options?: { waitMs?: number }): Promise<string>;
  stepUp(scopes: readonly string[], options?: { signal?: AbortSignal; waitMs?: number }): Promise<string>;
  pendingConsent(): { url: string; scopes: string[]; startedAt: number } | undefined;
  grantedScopes(): string[];
  status(): Promise<SessionStatus>;
  revoke(): Promise<{ revoked: boolean; message: string }>;
  close(): Promise<void>;
}

export function createSignInSession(config: SignInSessionConfig): SignInSession {
  const resolved = resolveSessionConfig(config);
  const client = createOAuthClient(config);
  const { store, now } = client;

  const coordinator = createConsentCoordinator({
    store,
    logger: client.logger,
    now,
    prompter: config.prompter,
    issuer: client.issuer,
    maxFlowMs: client.consentTimeoutMs,
    startAttempt: client.startAttempt,
    usableTokens: client.usableTokens,
  });

  /** AZ-08: in read-only mode, a scope that no read operation accepts is refused before any prompt. */
  const readOnlyGuard = (scopes: readonly string[]) => {
    const refused = resolved.readOnly ? refusedInReadOnly(scopes, resolved.documentScopes) : [];
    if (refused.length > 0) {
      throw new OAuthError(
        'OAUTH_READ_ONLY',
        `This needs ${quotableScopes(refused).join(' ')}, which no read operation of the school's API accepts, and school-mcp runs read-only: nothing was asked for.`,
        {
          hint: 'Tell the user that the school wants permissions read-only mode never asks for; only starting school-mcp without --read-only allows them.',
          details: { scopes: refused },
        },
      );
    }
  };

  /** Consent for what the policy asks (granted ∪ required ∪ ...), then the check that what came back is enough (TK-04). */
  const consentFor = async (
    required: readonly string[],
    alternatives: readonly (readonly string[])[],
    options: { signal?: AbortSignal; waitMs?: number },
  ) => {
    const granted = client.usableTokens(await store.read())?.scopes ?? client.grantedScopes();
    const scopes = consentScopes({
      granted,
      required,
      policy: resolved.scopePolicy,
      readOnly: resolved.readOnly,
      document: resolved.documentScopes,
    });
    const tokens = await coordinator.consent(scopes, {
      granted,
      // No wait given: the call waits for the flow's own outcome, whatever it is.
      waitMs:
        options.waitMs === undefined ? Number.POSITIVE_INFINITY : Math.min(options.waitMs, resolved.consentTimeoutMs),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    client.noteGranted(tokens.scopes);
    const needed = alternatives.map(scopesToCheck);
    if (!satisfiesAny(tokens.scopes, needed)) {
      const missing = missingScopes(tokens.scopes, needed[0] ?? scopesToCheck(required));
      throw new OAuthError('OAUTH_SCOPE_NOT_GRANTED', `The school did not grant ${missing.join(' ')}.`, {
        hint: 'Ask again and approve these permissions, or ask the school administrator to allow them.',
        details: { missing },
      });
    }
    return tokens.accessToken;
  };

  return {
    async accessToken(request) {
      client.ensureOpen();
      const alternatives = resolved.readOnly
        ? request.scopeAlternatives.filter(
            (alternative) => refusedInReadOnly(alternative, resolved.documentScopes).length === 0,
          )
        : request.scopeAlternatives;
      if (alternatives.length === 0 && request.scopeAlternatives.length > 0)
        readOnlyGuard(request.scopeAlternatives.flat());
      readOnlyGuard(request.requiredScopes);
      await client.ready();
      const tokens = client.usableTokens(await store.read());
      if (tokens && satisfiesAny(tokens.scopes, alternatives)) {
        if (!needsRefresh(tokens, now())) return tokens.accessToken;
        const fresh = await client.refreshed(tokens.accessToken, request.signal);
        if (fresh && satisfiesAny(fresh.scopes, alternatives)) return fresh.accessToken;
      }
      return consentFor(request.requiredScopes, alternatives, request);
    },

    async refreshAfterRejection(rejectedToken, signal, options = {}) {
      client.ensureOpen();
      await client.ready();
      const current = client.usableTokens(await store.read());
      if (current && current.accessToken !== rejectedToken && !needsRefresh(current, now())) return current.accessToken;
      const fresh = await client.refreshed(rejectedToken, signal);
      if (fresh) return fresh.accessToken;
      const granted = current?.scopes ?? client.grantedScopes();
      return consentFor(granted, [granted], {
        ...(signal ? { signal } : {}),
        ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
      });
    },

    async stepUp(scopes, options = {}) {
      client.ensureOpen();
      readOnlyGuard(scopes);
      await client.ready();
      return consentFor(scopes, [scopes], options);
    },

    pendingConsent() {
      const flow = coordinator.pending();
      return flow?.url ? { url: flow.url, scopes: [...flow.scopes], startedAt: flow.startedAt } : undefined;
    },

    grantedScopes: client.grantedScopes,
    status: client.status,
    revoke: client.revoke,

    async close() {
      const closing = client.close();
      coordinator.close();
      await closing;
      await coordinator.settled();
    },
  };
}
