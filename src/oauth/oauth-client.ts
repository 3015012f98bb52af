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
import { callbackPortChoice } from './callback-port.js';
import {
  activeClientOf,
  fixedClientOf,
  reusableRegistration,
  revocationClientOf,
  staticClientOf,
} from './client-choice.js';
import { clientConfiguration, registerClient, type RegistrationContext } from './registration.js';
import { revokeAll } from './revocation.js';
import { sessionStatusOf, type SessionStatus } from './session-status.js';
import {
  revocationSchoolOf,
  signOutOutcome,
  signOutPlan,
  withPendingRevocation,
  withoutTokens,
  type SignOutReport,
} from './sign-out.js';
import { createSchoolFetch } from './school-fetch.js';
import type { StoreRecord, StoredClient } from './store-record.js';
import { createTokenRefresher } from './token-refresher.js';
import type { TokenSet } from './token-set.js';
import { tokenStanding, usableTokensOf } from './token-standing.js';
import { createTokenStore, type TokenStore } from './token-store.js';
import { fetchSignedInUser, type SignedInUser } from './user-info.js';
import { schoolViewOf, type IntrospectedToken } from './token-introspection.js';
import { createUnrevokedRetry } from './unrevoked-tokens.js';

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
  revoke(): Promise<SignOutReport>;
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

  const activeClient = (record: StoreRecord): StoredClient | undefined =>
    activeClientOf(fixedClientOf(config, known, now()), record.client);

  const usableTokens = (record: StoreRecord): TokenSet | undefined => {
    const tokens = usableTokensOf(record.tokens, activeClient(record)?.clientId, known?.resource);
    if (tokens) lastGranted = tokens.scopes;
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
    staticClient: staticClientOf(config, now()),
    configuration: configurationFor,
  });

  const startAttempt = async (scopes: string[]): Promise<ConsentAttempt> => {
    const meta = await metadata();
    const record = await store.read();
    const registration = { target, metadata: meta, fetch, logger, now };
    const attempt = await startConsentAttempt({
      ...registration,
      scopes,
      timeoutMs: resolved.consentTimeoutMs,
      ...callbackPortChoice(config.callbackPort, record.client),
      clientFor: async (redirectUri) =>
        fixedClientOf(config, meta, now(), redirectUri) ??
        reusableRegistration((await store.read()).client, redirectUri) ??
        (await registerAndKeep(registration, store, redirectUri)),
    });
    attempts.add(attempt);
    forgetWhenSettled(attempt, logger, () => attempts.delete(attempt));
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

  const parts: ClientParts = {
    config,
    store,
    logger,
    now,
    metadata,
    activeClient,
    usableTokens,
    configurationFor,
    refreshed,
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
    status: () => readStatus(parts),
    async revoke() {
      const before = await forgetTokens(store);
      lastGranted = [];
      return signOut(parts, before);
    },
    async close() {
      closed = true;
      await Promise.allSettled([...attempts].map((attempt) => attempt.result));
      await unrevoked.settled();
    },
  };
}

/** What `status` and sign-out use of the client. */
interface ClientParts {
  readonly config: OAuthClientConfig;
  readonly store: TokenStore;
  readonly logger: Logger;
  readonly now: () => number;
  metadata(): Promise<SchoolMetadata>;
  activeClient(record: StoreRecord): StoredClient | undefined;
  usableTokens(record: StoreRecord): TokenSet | undefined;
  configurationFor(stored: StoredClient): Promise<client.Configuration>;
  refreshed(stale: string): Promise<TokenSet | undefined>;
}

async function registerAndKeep(
  context: RegistrationContext,
  store: TokenStore,
  redirectUri: string,
): Promise<StoredClient> {
  const registered = await registerClient(context, redirectUri);
  context.logger.redact(registered.clientSecret);
  // Kept at once, so that a restart or another process reuses it (RG-03).
  await store.update((next) => ({ ...next, client: registered }));
  context.logger.info('registered with the school', { issuer: context.metadata.issuer, redirectUri });
  return registered;
}

/** The attempt's tokens are redacted from the log from now on; `forget` runs once it has settled. */
function forgetWhenSettled(attempt: ConsentAttempt, logger: Logger, forget: () => void): void {
  attempt.result
    .then(
      (result) => {
        logger.redact(result.tokens.accessToken, 'rotating');
        logger.redact(result.tokens.refreshToken, 'rotating');
      },
      () => undefined,
    )
    .finally(forget);
}

async function readStatus(parts: ClientParts): Promise<SessionStatus> {
  const { logger, configurationFor } = parts;
  const meta = await parts.metadata();
  const record = await parts.store.read();
  let tokens = parts.usableTokens(record);
  const active = parts.activeClient(record);
  const standing = tokenStanding(tokens, parts.now());
  let user: SignedInUser | undefined;
  let checked: IntrospectedToken | undefined;
  if (standing.kind !== 'sign-in' && active) {
    let current = standing.tokens;
    try {
      if (standing.kind === 'refresh') current = (await parts.refreshed(current.accessToken)) ?? current;
      user = await fetchSignedInUser(await configurationFor(active), current.accessToken);
    } catch (error) {
      logger.warn('could not read the signed-in user', { error: toOAuthError(error, 'userinfo').message });
    }
    tokens = current;
    checked = await schoolViewOf(await configurationFor(active), current.accessToken, logger);
  }
  return sessionStatusOf({ issuer: meta.issuer, clientId: active?.clientId, user, tokens, checked });
}

/** RV-03: forgotten locally first, so nothing uses the tokens from now on; the record as it was. */
async function forgetTokens(store: TokenStore): Promise<StoreRecord | undefined> {
  let before: StoreRecord | undefined;
  await store.update((record) => {
    before = record;
    return withoutTokens(record);
  });
  return before;
}

async function signOut(parts: ClientParts, before: StoreRecord | undefined): Promise<SignOutReport> {
  const { logger, now } = parts;
  const plan = signOutPlan(before);
  if (plan.kind === 'nothing') return plan.report;
  let meta: SchoolMetadata | undefined;
  try {
    meta = await parts.metadata();
  } catch (error) {
    logger.warn('the school could not be reached for revocation', { error });
  }
  const school = revocationSchoolOf(meta);
  const configFor = (clientId: string) => {
    const known = [staticClientOf(parts.config, now()), before?.client];
    const revokedAs = revocationClientOf(clientId, known, school === 'offered');
    return revokedAs ? parts.configurationFor(revokedAs) : Promise.resolve(undefined);
  };
  const outcome = await revokeAll(plan.queue, configFor, { logger, now });
  const { keep, report } = signOutOutcome(outcome.unconfirmed, school);
  await parts.store.update((record) => withPendingRevocation(record, keep));
  return report;
}
