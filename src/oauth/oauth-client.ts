/**
 * The OAuth client of one school: its metadata, its registration, the tokens in the store,
 * refresh, status and revocation, and one consent attempt (PKCE, the loopback callback, the code
 * exchange) started on request. Which scopes to ask for, when to ask, one flow per school across
 * processes and how the user is reached belong to the consent part, which drives this client.
 * It knows nothing of MCP or OpenAPI.
 */
import type * as client from 'openid-client';
import type { Logger } from '../log.js';
import { resolveClientConfig, type OAuthClientConfig } from './client-config.js';
import { startConsentAttempt, type ConsentAttempt } from './consent-attempt.js';
import { discoverSchool, type SchoolMetadata } from './discovery.js';
import { OAuthError, isOAuthError } from './oauth-error.js';
import { toOAuthError } from './protocol-error.js';
import { clientConfiguration, metadataDocumentClient, registerClient, registrationFits } from './registration.js';
import { revocationQueue, revokeAll } from './revocation.js';
import { createSchoolFetch } from './school-fetch.js';
import type { StoreRecord, StoredClient } from './store-record.js';
import { createTokenRefresher } from './token-refresher.js';
import { needsRefresh, type TokenSet } from './token-set.js';
import { createTokenStore, type TokenStore } from './token-store.js';
import { fetchSignedInUser, type SignedInUser } from './user-info.js';
import { schoolViewOf, type IntrospectedToken } from './token-introspection.js';
import { createUnrevokedRetry } from './unrevoked-tokens.js';

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

export interface OAuthClient {
  /** The store the consent part locks and watches (one flow per school across processes). */
  readonly store: TokenStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** How long one consent attempt stays open. */
  readonly consentTimeoutMs: number;
  /** Discovers the school once (again after a failure); every other step needs it. */
  ready(): Promise<SchoolMetadata>;
  issuer(): Promise<string>;
  /** Tokens in the record that this client may use (its client id, the school's current resource), if any. */
  usableTokens(record: StoreRecord): TokenSet | undefined;
  /** What the last usable tokens granted, kept after they are gone so that a new consent asks for them again. */
  grantedScopes(): string[];
  noteGranted(scopes: readonly string[]): void;
  /** A fresh token after refresh, or `undefined` when only a new sign-in can help. */
  refreshed(stale: string, signal?: AbortSignal): Promise<TokenSet | undefined>;
  /** Binds the listener, registers when needed and builds the authorization URL; the caller holds the consent lock. */
  startAttempt(scopes: string[]): Promise<ConsentAttempt>;
  /** Throws `OAUTH_CLOSED` once `close` was called. */
  ensureOpen(): void;
  status(): Promise<SessionStatus>;
  revoke(): Promise<{ revoked: boolean; message: string }>;
  /** Stops taking requests; settles once every attempt and background retry has finished. */
  close(): Promise<void>;
}

export function createOAuthClient(config: OAuthClientConfig): OAuthClient {
  const resolved = resolveClientConfig(config);
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
      ? {
          kind: 'static',
          clientId: config.clientId,
          ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}),
          redirectUris: redirectUri ? [redirectUri] : [],
          registeredAt: now(),
        }
      : undefined;

  /** The client this session signs in as, given what the store holds. */
  const activeClient = (record: StoreRecord): StoredClient | undefined =>
    staticClient() ?? (known && metadataDocumentClient(known, config.clientMetadataUrl, now())) ?? record.client;

  /** Tokens of the active client, for the school's current resource (ST-05, MD-06). */
  const usableTokens = (record: StoreRecord): TokenSet | undefined => {
    const tokens = record.tokens;
    const active = activeClient(record);
    if (!tokens || !known || !active || tokens.clientId !== active.clientId || tokens.resource !== known.resource)
      return undefined;
    lastGranted = tokens.scopes;
    return tokens;
  };

  const configurationFor = async (stored: StoredClient): Promise<client.Configuration> => {
    if (!known)
      throw new OAuthError('OAUTH_DISCOVERY_FAILED', 'The school metadata is not loaded.', { hint: 'Try again.' });
    return clientConfiguration({ target, metadata: known, fetch }, stored);
  };

  const unrevoked = createUnrevokedRetry({
    store,
    logger,
    now,
    staticClient: staticClient(),
    configuration: configurationFor,
  });

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
      ...((config.callbackPort ?? registeredPort(record))
        ? { preferredPort: config.callbackPort ?? registeredPort(record) }
        : {}),
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
    attempt.result
      .then(
        (result) => {
          logger.redact(result.tokens.accessToken, 'rotating');
          logger.redact(result.tokens.refreshToken, 'rotating');
        },
        () => undefined,
      )
      .finally(() => attempts.delete(attempt));
    return attempt;
  };

  const refresher = createTokenRefresher({
    store,
    logger,
    now,
    clientOf: (record) => activeClient(record),
    usableTokens,
    configuration: async (stored) => {
      await metadata();
      return await configurationFor(stored);
    },
  });

  const refreshed = async (stale: string, signal?: AbortSignal): Promise<TokenSet | undefined> => {
    try {
      return await refresher.refresh(stale, signal);
    } catch (error) {
      if (isOAuthError(error, 'OAUTH_SIGN_IN_REQUIRED')) return undefined;
      throw error;
    }
  };

  return {
    store,
    logger,
    now,
    consentTimeoutMs: resolved.consentTimeoutMs,
    ready: metadata,
    issuer: async () => (await metadata()).issuer,
    usableTokens,
    grantedScopes: () => [...lastGranted],
    noteGranted(scopes) {
      lastGranted = [...scopes];
    },
    refreshed,
    startAttempt,
    ensureOpen() {
      if (closed)
        throw new OAuthError('OAUTH_CLOSED', 'The sign-in session was closed.', { hint: 'Start school-mcp again.' });
    },

    async status() {
      const meta = await metadata();
      const record = await store.read();
      let tokens = usableTokens(record);
      const active = activeClient(record);
      let user: SignedInUser | undefined;
      let checked: IntrospectedToken | undefined;
      if (tokens && active) {
        try {
          if (needsRefresh(tokens, now()) && tokens.refreshToken)
            tokens = (await refreshed(tokens.accessToken)) ?? tokens;
          user = await fetchSignedInUser(await configurationFor(active), tokens.accessToken);
        } catch (error) {
          logger.warn('could not read the signed-in user', { error: toOAuthError(error, 'userinfo').message });
        }
        checked = await schoolViewOf(await configurationFor(active), tokens.accessToken, logger);
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
        ...(tokens
          ? { accessToken: tokens.accessToken, ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}) }
          : {}),
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
        return meta?.server.revocation_endpoint && candidate ? configurationFor(candidate) : Promise.resolve(undefined);
      };
      const outcome = await revokeAll(queue, configFor, { logger, now });
      const keep = outcome.unconfirmed.filter((item) => item.hint === 'refresh_token');
      await store.update((record) => {
        const next = { ...record };
        if (keep.length > 0) next.pendingRevocation = keep;
        else delete next.pendingRevocation;
        return next;
      });
      if (outcome.unconfirmed.length === 0)
        return {
          revoked: true,
          message: 'Signed out: the school revoked the tokens and they were removed from this computer.',
        };
      const why = !meta
        ? 'the school could not be reached'
        : !meta.server.revocation_endpoint
          ? 'the school offers no revocation endpoint'
          : 'revocation not confirmed by the school';
      return {
        revoked: false,
        message: `Signed out on this computer, but ${why}: the tokens may stay valid at the school until they expire.${keep.length > 0 ? ' Revocation will be retried the next time school-mcp starts.' : ''}`,
      };
    },

    async close() {
      closed = true;
      await Promise.allSettled([...attempts].map((attempt) => attempt.result));
      await unrevoked.settled();
    },
  };
}
