/**
 * The sign-in session: everything between "the user named a school" and "a valid access token
 * with these scopes". It knows nothing of MCP or OpenAPI; the MCP layer asks for tokens by scope
 * and supplies the prompter.
 */
import type * as client from 'openid-client';
import { startConsentAttempt, type ConsentAttempt } from './consent-attempt.js';
import { createConsentCoordinator } from './consent-coordinator.js';
import { discoverSchool, type SchoolMetadata } from './discovery.js';
import { OAuthError, isOAuthError } from './oauth-error.js';
import { toOAuthError } from './protocol-error.js';
import { clientConfiguration, metadataDocumentClient, registerClient, registrationFits } from './registration.js';
import { revocationQueue, revokeAll } from './revocation.js';
import { createSchoolFetch } from './school-fetch.js';
import { consentScopes, refusedInReadOnly } from './consent-policy.js';
import { quotableScopes } from '../school-text/index.js';
import { missingScopes, satisfiesAny, scopesToCheck } from './scopes.js';
import { resolveSessionConfig, type OAuthSessionConfig } from './session-config.js';
import type { StoreRecord, StoredClient } from './store-record.js';
import { createTokenRefresher } from './token-refresher.js';
import { needsRefresh, type TokenSet } from './token-set.js';
import { createTokenStore } from './token-store.js';
import { fetchSignedInUser, type SignedInUser } from './user-info.js';
import { schoolViewOf, type IntrospectedToken } from './token-introspection.js';
import { createUnrevokedRetry } from './unrevoked-tokens.js';

export interface AccessTokenRequest {
  /** Any one of these sets, wholly granted, is enough. Empty: any valid token will do. */
  scopeAlternatives: readonly (readonly string[])[];
  /** What to ask for when consent is needed. */
  requiredScopes: readonly string[];
  signal?: AbortSignal;
  /** How long to wait for the user (default: the flow's timeout). */
  waitMs?: number;
}

export interface SessionStatus {
  issuer: string;
  clientId: string | undefined;
  user: SignedInUser | undefined;
  scopes: string[];
  expiresAt: number | undefined;
  signedIn: boolean;
  /** The school's own view (RFC 7662) when it offers introspection; scopes and expiry then come from it. */
  introspection?: 'active' | 'inactive';
}

export interface OAuthSession {
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

export function createOAuthSession(config: OAuthSessionConfig): OAuthSession {
  const resolved = resolveSessionConfig(config);
  const { target, now } = resolved;
  const logger = config.logger.child('oauth');
  const fetch = createSchoolFetch(config.fetch ? { fetch: config.fetch } : {});
  const store = createTokenStore({
    dir: config.storeDir,
    issuer: target.expectedIssuer,
    logger,
    now,
    ...(config.beforeStoreCommit ? { beforeCommit: config.beforeStoreCommit } : {}),
  });
  let metadataPromise: Promise<SchoolMetadata> | undefined;
  let known: SchoolMetadata | undefined;
  let lastGranted: string[] = [];
  let closed = false;
  const attempts = new Set<ConsentAttempt>();

  const metadata = (): Promise<SchoolMetadata> => {
    metadataPromise ??= discoverSchool(target, fetch, logger).then(
      (discovered) => {
        known = discovered;
        unrevoked.start(discovered);
        return discovered;
      },
      (error: unknown) => {
        metadataPromise = undefined; // a failed discovery is retried on the next call
        throw error;
      },
    );
    return metadataPromise;
  };

  const staticClient = (redirectUri?: string): StoredClient | undefined =>
    config.clientId
      ? { kind: 'static', clientId: config.clientId, ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}), redirectUris: redirectUri ? [redirectUri] : [], registeredAt: now() }
      : undefined;

  /** The client this session signs in as, given what the store holds. */
  const activeClient = (record: StoreRecord): StoredClient | undefined =>
    staticClient() ?? (known && metadataDocumentClient(known, config.clientMetadataUrl, now())) ?? record.client;

  /** Tokens of the active client, for the school's current resource (ST-05, MD-06). */
  const usableTokens = (record: StoreRecord): TokenSet | undefined => {
    const tokens = record.tokens;
    const active = activeClient(record);
    if (!tokens || !known || !active || tokens.clientId !== active.clientId || tokens.resource !== known.resource) return undefined;
    lastGranted = tokens.scopes;
    return tokens;
  };

  const configurationFor = (stored: StoredClient): client.Configuration => {
    if (!known) throw new OAuthError('OAUTH_DISCOVERY_FAILED', 'The school metadata is not loaded.', { hint: 'Try again.' });
    return clientConfiguration({ target, metadata: known, fetch }, stored);
  };

  const unrevoked = createUnrevokedRetry({ store, logger, now, staticClient: staticClient(), configuration: configurationFor });

  const registeredPort = (record: StoreRecord): number | undefined => {
    const uri = record.client?.kind === 'dynamic' ? record.client.redirectUris[0] : undefined;
    const port = uri ? Number(new URL(uri).port) : NaN;
    return Number.isInteger(port) && port > 0 ? port : undefined;
  };

  const startAttempt = async (scopes: string[]): Promise<ConsentAttempt> => {
    const meta = await metadata();
    const record = await store.read();
    const attempt = await startConsentAttempt({
      target,
      metadata: meta,
      fetch,
      logger,
      now,
      scopes,
      timeoutMs: resolved.consentTimeoutMs,
      ...(config.callbackPort ?? registeredPort(record) ? { preferredPort: config.callbackPort ?? registeredPort(record) } : {}),
      portIsFixed: config.callbackPort !== undefined,
      clientFor: async (redirectUri) => {
        const fixed = staticClient(redirectUri) ?? metadataDocumentClient(meta, config.clientMetadataUrl, now());
        if (fixed) return fixed;
        const current = (await store.read()).client;
        if (current?.kind === 'dynamic' && registrationFits(current, redirectUri)) return current;
        const registered = await registerClient({ target, metadata: meta, fetch, logger, now }, redirectUri);
        logger.redact(registered.clientSecret);
        // Kept at once, so that a restart or another process reuses it (RG-03).
        await store.update((next) => ({ ...next, client: registered }));
        logger.info('registered with the school', { issuer: meta.issuer, redirectUri });
        return registered;
      },
    });
    attempts.add(attempt);
    attempt.result.then(
      (result) => {
        logger.redact(result.tokens.accessToken);
        logger.redact(result.tokens.refreshToken);
      },
      () => undefined,
    ).finally(() => attempts.delete(attempt));
    return attempt;
  };

  const coordinator = createConsentCoordinator({
    store,
    logger,
    now,
    prompter: config.prompter,
    issuer: async () => (await metadata()).issuer,
    maxFlowMs: resolved.consentTimeoutMs,
    startAttempt,
    usableTokens,
  });

  const refresher = createTokenRefresher({
    store,
    logger,
    now,
    clientOf: (record) => activeClient(record),
    usableTokens,
    configuration: async (stored) => {
      await metadata();
      return configurationFor(stored);
    },
  });

  const ensureOpen = () => {
    if (closed) throw new OAuthError('OAUTH_CLOSED', 'The sign-in session was closed.', { hint: 'Start school-mcp again.' });
  };

  /** AZ-08: in read-only mode, a scope that no read operation accepts is refused before any prompt. */
  const readOnlyGuard = (scopes: readonly string[]) => {
    const refused = resolved.readOnly ? refusedInReadOnly(scopes, resolved.documentScopes) : [];
    if (refused.length > 0) {
      throw new OAuthError('OAUTH_READ_ONLY', `This needs ${quotableScopes(refused).join(' ')}, which no read operation of the school's API accepts, and school-mcp runs read-only: nothing was asked for.`, {
        hint: 'Tell the user that the school wants permissions read-only mode never asks for; only starting school-mcp without --read-only allows them.',
        details: { scopes: refused },
      });
    }
  };

  /** Consent for what the policy asks (granted ∪ required ∪ ...), then the check that what came back is enough (TK-04). */
  const consentFor = async (required: readonly string[], alternatives: readonly (readonly string[])[], options: { signal?: AbortSignal; waitMs?: number }) => {
    const granted = usableTokens(await store.read())?.scopes ?? lastGranted;
    const scopes = consentScopes({ granted, required, policy: resolved.scopePolicy, readOnly: resolved.readOnly, document: resolved.documentScopes });
    const tokens = await coordinator.consent(scopes, {
      granted,
      // No wait given: the call waits for the flow's own outcome, whatever it is.
      waitMs: options.waitMs === undefined ? Number.POSITIVE_INFINITY : Math.min(options.waitMs, resolved.consentTimeoutMs),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    lastGranted = tokens.scopes;
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

  /** A fresh token after refresh, or `undefined` when only a new sign-in can help. */
  const refreshed = async (stale: string, signal?: AbortSignal): Promise<TokenSet | undefined> => {
    try {
      return await refresher.refresh(stale, signal);
    } catch (error) {
      if (isOAuthError(error, 'OAUTH_SIGN_IN_REQUIRED')) return undefined;
      throw error;
    }
  };

  return {
    async accessToken(request) {
      ensureOpen();
      const alternatives = resolved.readOnly
        ? request.scopeAlternatives.filter((alternative) => refusedInReadOnly(alternative, resolved.documentScopes).length === 0)
        : request.scopeAlternatives;
      if (alternatives.length === 0 && request.scopeAlternatives.length > 0) readOnlyGuard(request.scopeAlternatives.flat());
      readOnlyGuard(request.requiredScopes);
      await metadata();
      const tokens = usableTokens(await store.read());
      if (tokens && satisfiesAny(tokens.scopes, alternatives)) {
        if (!needsRefresh(tokens, now())) return tokens.accessToken;
        const fresh = await refreshed(tokens.accessToken, request.signal);
        if (fresh && satisfiesAny(fresh.scopes, alternatives)) return fresh.accessToken;
      }
      return consentFor(request.requiredScopes, alternatives, request);
    },

    async refreshAfterRejection(rejectedToken, signal, options = {}) {
      ensureOpen();
      await metadata();
      const current = usableTokens(await store.read());
      if (current && current.accessToken !== rejectedToken && !needsRefresh(current, now())) return current.accessToken;
      const fresh = await refreshed(rejectedToken, signal);
      if (fresh) return fresh.accessToken;
      const granted = current?.scopes ?? lastGranted;
      return consentFor(granted, [granted], { ...(signal ? { signal } : {}), ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }) });
    },

    async stepUp(scopes, options = {}) {
      ensureOpen();
      readOnlyGuard(scopes);
      await metadata();
      return consentFor(scopes, [scopes], options);
    },

    pendingConsent() {
      const flow = coordinator.pending();
      return flow?.url ? { url: flow.url, scopes: [...flow.scopes], startedAt: flow.startedAt } : undefined;
    },

    grantedScopes: () => [...lastGranted],

    async status() {
      const meta = await metadata();
      const record = await store.read();
      let tokens = usableTokens(record);
      const active = activeClient(record);
      let user: SignedInUser | undefined;
      let checked: IntrospectedToken | undefined;
      if (tokens && active) {
        try {
          if (needsRefresh(tokens, now()) && tokens.refreshToken) tokens = (await refreshed(tokens.accessToken)) ?? tokens;
          user = await fetchSignedInUser(configurationFor(active), tokens.accessToken);
        } catch (error) {
          logger.warn('could not read the signed-in user', { error: toOAuthError(error, 'userinfo').message });
        }
        checked = await schoolViewOf(configurationFor(active), tokens.accessToken, logger);
      }
      return {
        issuer: meta.issuer,
        clientId: active?.clientId,
        user,
        scopes: (checked?.active ? checked.scopes : undefined) ?? tokens?.scopes ?? [],
        expiresAt: (checked?.active ? checked.expiresAt : undefined) ?? tokens?.expiresAt,
        signedIn: tokens !== undefined,
        ...(checked ? { introspection: checked.active ? 'active' : 'inactive' } : {}),
      };
    },

    async revoke() {
      // RV-03: forgotten locally first, so nothing uses the tokens from now on.
      let before: StoreRecord | undefined;
      await store.update((record) => {
        before = record;
        const next = { ...record };
        delete next.tokens;
        return next;
      });
      lastGranted = [];
      const tokens = before?.tokens;
      const queue = revocationQueue({
        ...(tokens ? { accessToken: tokens.accessToken, ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}) } : {}),
        clientId: tokens?.clientId ?? '',
        pending: before?.pendingRevocation ?? [],
      });
      if (queue.length === 0) return { revoked: false, message: 'Not signed in to this school; nothing to revoke.' };
      let meta: SchoolMetadata | undefined;
      try {
        meta = await metadata();
      } catch (error) {
        logger.warn('the school could not be reached for revocation', { error });
      }
      const configFor = (clientId: string) => {
        const candidate = [staticClient(), before?.client].find((stored) => stored?.clientId === clientId);
        return meta?.server.revocation_endpoint && candidate ? configurationFor(candidate) : undefined;
      };
      const outcome = await revokeAll(queue, configFor, { logger, now });
      const keep = outcome.unconfirmed.filter((item) => item.hint === 'refresh_token');
      await store.update((record) => {
        const next = { ...record };
        if (keep.length > 0) next.pendingRevocation = keep;
        else delete next.pendingRevocation;
        return next;
      });
      if (outcome.unconfirmed.length === 0) return { revoked: true, message: 'Signed out: the school revoked the tokens and they were removed from this computer.' };
      const why = !meta ? 'the school could not be reached' : !meta.server.revocation_endpoint ? 'the school offers no revocation endpoint' : 'revocation not confirmed by the school';
      return {
        revoked: false,
        message: `Signed out on this computer, but ${why}: the tokens may stay valid at the school until they expire.${keep.length > 0 ? ' Revocation will be retried the next time school-mcp starts.' : ''}`,
      };
    },

    async close() {
      closed = true;
      coordinator.close();
      await Promise.allSettled([...attempts].map((attempt) => attempt.result));
      await coordinator.settled();
      await unrevoked.settled();
    },
  };
}

