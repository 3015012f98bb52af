/**
 * What the hosted server's routes run on, made once at the start: the authorization server (its
 * secrets from the store, its storage adapter, its store outages answered 503 and its events
 * audited), the school sign-in, each caller's grant, account and step-ups, the registration bounds,
 * and the store's readiness for `/readyz`.
 */
import type Provider from 'oidc-provider';
import { NO_AUDIT_LOG, type AuditLog } from '../audit/index.js';
import { readingUnreadableAsAbsent, takeRecord, type GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';
import type { HostedCaller } from './access-check.js';
import { auditProviderEvents } from './audit-provider-events.js';
import { createHostedProvider } from './authorization-server.js';
import { createCallerAccess } from './caller-access.js';
import { createClientMetadataDocuments, type ClientMetadataDocumentOptions } from './client-metadata-documents.js';
import type { InteractionContext } from './interaction-page.js';
import type { CallerServices } from './mcp-route.js';
import { endGeneration } from './person-generation.js';
import { answerProviderStoreOutagesWith503 } from './provider-outage.js';
import { loadProviderSecrets } from './provider-secrets.js';
import type { PublicUrl } from './public-url.js';
import {
  createRegistrationLimits,
  DEFAULT_REGISTRATION_LIMITS,
  type RegistrationLimitOptions,
  type RegistrationLimits,
} from './registration-limits.js';
import { createSchoolSignIn, SCHOOL_GRANT_RECORD, type SchoolIntegration } from './school-sign-in.js';
import { storeAdapterClass } from './store-adapter.js';
import { stepUpLink } from './step-up-record.js';
import { isStoreUnavailable } from './store-outage.js';
import { createStoreReadiness } from './store-readiness.js';

export interface HostedServiceOptions {
  readonly school: SchoolIntegration | ((publicUrl: PublicUrl) => SchoolIntegration | Promise<SchoolIntegration>);
  /** Watched for outages already: every store call of every route reports to that watcher. */
  readonly store: GrantStore;
  readonly accessTokenTtl?: number;
  readonly clientMetadataDocuments?: ClientMetadataDocumentOptions;
  readonly audit?: AuditLog;
  readonly registration?: Partial<RegistrationLimitOptions>;
}

export interface HostedServices {
  readonly provider: Provider;
  readonly audit: AuditLog;
  readonly interactions: InteractionContext;
  readonly registrations: RegistrationLimits;
  /** Whether the store answers, asked at most once a second. */
  readonly storeAnswers: () => Promise<boolean>;
  readonly servicesOf: (caller: HostedCaller) => CallerServices;
}

export async function startHostedServices(
  options: HostedServiceOptions,
  publicUrl: PublicUrl,
  log: Logger,
): Promise<HostedServices> {
  // The authorization server's secrets must open, or the start stops naming them (ST-11); any other
  // record sealed with a key no longer given reads as absent, so its person signs in again (ST-10).
  const secrets = await loadProviderSecrets(options.store);
  const store = readingUnreadableAsAbsent(options.store, log);
  const audit = options.audit ?? NO_AUDIT_LOG;
  const storeAnswers = createStoreReadiness({ ping: () => store.ping() });
  const school = typeof options.school === 'function' ? await options.school(publicUrl) : options.school;
  const registrationLimits = { ...DEFAULT_REGISTRATION_LIMITS, ...options.registration };
  const adapter = storeAdapterClass(
    store,
    undefined,
    createClientMetadataDocuments(store, publicUrl, options.clientMetadataDocuments),
    registrationLimits.unusedSeconds,
  );
  const registrations = createRegistrationLimits(store, registrationLimits);
  const schoolSignIn = createSchoolSignIn(school, store, log);
  const provider = createHostedProvider({
    publicUrl,
    adapter,
    secrets,
    ...(options.accessTokenTtl === undefined ? {} : { accessTokenTtl: options.accessTokenTtl }),
    async onGrantEnded(sub) {
      // As a sign-out: every client of this person signs in again (HOST-33).
      const grant = await takeRecord(store, SCHOOL_GRANT_RECORD, sub);
      await endGeneration(store, sub);
      if (grant !== undefined)
        await schoolSignIn
          .revoke(grant)
          .catch((error: unknown) => log.warn('the school did not confirm a revocation', { error: String(error) }));
    },
  });
  const access = createCallerAccess({
    store,
    audit,
    signIn: schoolSignIn,
    schoolIssuer: school.schoolUrl.href.replace(/\/+$/, ''),
    stepUpUrl: (id) => stepUpLink(publicUrl.base, id),
    async endMcpGrant(caller) {
      // Every token of this connection goes with its grant (RFC 7009 §2.1 spirit: sign-out ends them all).
      await new adapter('Grant').revokeByGrantId!(caller.grantId);
      await new adapter('Grant').destroy(caller.grantId);
    },
  });
  provider.on('server_error', (_ctx: unknown, error: Error) => {
    // A store outage is logged once by the store's watcher, not once per request.
    if (!isStoreUnavailable(error)) log.warn('authorization server error', { error: error.message });
  });
  answerProviderStoreOutagesWith503(provider);
  auditProviderEvents(provider, audit);
  const interactions: InteractionContext = {
    provider,
    store,
    publicUrl,
    schoolSignIn,
    schoolUrl: school.schoolUrl,
    formKey: secrets.cookieKeys[0]!,
    logger: log,
    audit,
  };
  return {
    provider,
    audit,
    interactions,
    registrations,
    storeAnswers,
    servicesOf: (caller) => ({
      tokens: access.tokensFor(caller),
      account: access.accountFor(caller),
      stepUps: access.stepUpsFor(caller),
    }),
  };
}
