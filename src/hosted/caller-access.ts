/**
 * What one caller's tool calls run with: that staff member's school grant, read from the store on
 * every call (so another instance's refresh or sign-out is seen at once), refreshed when it has
 * expired or the API refused it (once per rotation across instances: `shared-refresh.ts`), and
 * never another person's. The shapes are those of the executor's `AccessTokenSource` and the
 * server's `AccountService`, matched structurally.
 * @see SECURITY.md HOST-14
 */
import { NO_AUDIT_LOG, type AuditLog } from '../audit/index.js';
import type { ConsentBroker } from '../consent/index.js';
import { readRecord, takeRecord, type GrantStore } from '../grant-store/index.js';
import { satisfiesAny } from '../oauth/index.js';
import type { HostedCaller } from './access-check.js';
import { endGeneration } from './person-generation.js';
import { SCHOOL_GRANT_RECORD, type SchoolGrant, type SchoolSignIn } from './school-sign-in.js';
import { createSharedRefresh, RECONNECT_ADVICE, signInRequired } from './shared-refresh.js';
import { createStepUpBroker, openStepUp, type StepUpLinks } from './step-up-broker.js';
import { StepUpRequired } from './step-up-required.js';

/** A token this close to its expiry is refreshed first, so a call does not fail on the way. */
const EXPIRY_MARGIN_SECONDS = 30;
/**
 * A token with this much left still reaches the school: its call goes ahead with it rather than
 * wait for another instance's refresh of it.
 */
const STILL_USABLE_SECONDS = 5;

export interface CallerTokens {
  accessToken(request: {
    readonly scopeAlternatives: readonly (readonly string[])[];
    readonly requiredScopes: readonly string[];
  }): Promise<string>;
  refreshAfterRejection(rejectedToken: string): Promise<string>;
}

export interface CallerAccount {
  status(): Promise<{
    signedIn: boolean;
    issuer: string;
    clientId: string | undefined;
    user: { sub: string; name?: string; email?: string; roles?: readonly string[] } | undefined;
    scopes: readonly string[];
    expiresAt: number | undefined;
    signInAdvice: string;
  }>;
  signOut(): Promise<{ revoked: boolean; message: string }>;
}

export interface CallerAccessOptions {
  readonly store: GrantStore;
  /** Records step-ups asked and sign-outs; none by default. */
  readonly audit?: AuditLog;
  readonly signIn: SchoolSignIn;
  readonly schoolIssuer: string;
  /** The page of a step-up, `{public-url}/step-up/<id>`. */
  readonly stepUpUrl: (id: string) => string;
  /** Ends this MCP client's grant at once (the person's other grants end by their generation). */
  readonly endMcpGrant: (caller: HostedCaller) => Promise<void>;
}

export function createCallerAccess(options: CallerAccessOptions) {
  const { store, signIn } = options;
  const audit = options.audit ?? NO_AUDIT_LOG;
  const linksFor = (caller: HostedCaller): StepUpLinks => ({
    store,
    link: options.stepUpUrl,
    opened: (missing) =>
      audit.record({ event: 'step_up', outcome: 'asked', sub: caller.sub, clientId: caller.clientId, scopes: missing }),
  });
  const refreshAcrossInstances = createSharedRefresh({ store, signIn });
  // One refresh per person at a time in this instance: concurrent calls share its result instead
  // of polling the store for this instance's own refresh.
  const refreshing = new Map<string, Promise<SchoolGrant>>();

  const grantOf = async (sub: string): Promise<SchoolGrant> => {
    const grant = await readRecord(store, SCHOOL_GRANT_RECORD, sub);
    if (grant === undefined) throw signInRequired();
    return grant;
  };
  const refreshed = (grant: SchoolGrant, waitForHolder = true): Promise<SchoolGrant> => {
    const running = refreshing.get(grant.sub);
    if (running) return running;
    const next = refreshAcrossInstances(grant, { waitForHolder }).finally(() => refreshing.delete(grant.sub));
    refreshing.set(grant.sub, next);
    return next;
  };

  return {
    tokensFor(caller: HostedCaller): CallerTokens {
      return {
        async accessToken(request) {
          let grant = await grantOf(caller.sub);
          const now = Math.floor(Date.now() / 1000);
          if (grant.expiresAt !== undefined && grant.expiresAt - EXPIRY_MARGIN_SECONDS <= now)
            grant = await refreshed(grant, grant.expiresAt - STILL_USABLE_SECONDS <= now);
          if (!satisfiesAny(grant.scopes, request.scopeAlternatives)) {
            // Reaches this caller only (the consent pipeline shows it); it asks the school for granted ∪ needed.
            throw new StepUpRequired(
              await openStepUp(linksFor(caller), caller.sub, grant.scopes, request.requiredScopes),
            );
          }
          return grant.accessToken;
        },
        async refreshAfterRejection(rejectedToken) {
          const grant = await grantOf(caller.sub);
          if (grant.accessToken !== rejectedToken) return grant.accessToken;
          return (await refreshed(grant)).accessToken;
        },
      };
    },

    /** The step-ups of this caller's person, for the consent pipeline: after a 403 `insufficient_scope` too. */
    stepUpsFor(caller: HostedCaller): ConsentBroker {
      return createStepUpBroker({ ...linksFor(caller), sub: caller.sub, grant: () => grantOf(caller.sub) });
    },

    accountFor(caller: HostedCaller): CallerAccount {
      return {
        async status() {
          const grant = await readRecord(store, SCHOOL_GRANT_RECORD, caller.sub);
          return {
            signedIn: grant !== undefined,
            issuer: options.schoolIssuer,
            clientId: caller.clientId,
            user:
              grant === undefined
                ? undefined
                : {
                    sub: grant.sub,
                    ...(grant.name ? { name: grant.name } : {}),
                    ...(grant.email ? { email: grant.email } : {}),
                    ...(grant.roles ? { roles: grant.roles } : {}),
                  },
            scopes: grant?.scopes ?? [],
            expiresAt: grant?.expiresAt === undefined ? undefined : grant.expiresAt * 1000,
            signInAdvice: RECONNECT_ADVICE,
          };
        },
        async signOut() {
          // The school grant first, then the generation: a sign-in settling in between is either
          // taken with it or stamped with the old generation (HOST-33, HOST-34).
          const grant = await takeRecord(store, SCHOOL_GRANT_RECORD, caller.sub);
          await endGeneration(store, caller.sub);
          let revoked = false;
          if (grant !== undefined)
            revoked = await signIn.revoke(grant).then(
              () => true,
              () => false,
            );
          await options.endMcpGrant(caller);
          audit.record({
            event: 'sign_out',
            outcome: 'ok',
            sub: caller.sub,
            clientId: caller.clientId,
            schoolRevoked: revoked,
          });
          return {
            revoked,
            message: revoked
              ? "Signed out: school-mcp revoked this person's school sign-in and the tokens of every application they connected; each asks them to sign in again."
              : 'Signed out of school-mcp, in every application this person connected; the school did not confirm the revocation, so its tokens may live until they expire.',
          };
        },
      };
    },
  };
}
