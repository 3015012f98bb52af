/**
 * The school leg of a hosted sign-in: school-mcp, as the school's registered integration (a
 * confidential client with the fixed callback `{public-url}/oauth/callback`), sends the staff
 * member to the school with PKCE S256 and a fresh state, and takes the answer at its callback:
 * the flow is found by its state once, must come back to the browser that started it, must carry
 * the school's `iss` (RFC 9207), and its code is exchanged with the secret in the body
 * (`client_secret_post`). What it yields is that staff member's school grant, merged with the one
 * they already have (`school-grant.ts`) under the grant's lock, which a refresh takes too.
 */
import { createHash, randomBytes } from 'node:crypto';
import type * as client from 'openid-client';
import {
  holdingLock,
  isText,
  listOf,
  objectWith,
  optional,
  readRecord,
  takeRecord,
  type GrantStore,
  type HoldingLockOptions,
  type RecordKind,
} from '../grant-store/index.js';
import type { Logger } from '../log.js';
import {
  BASELINE_SCOPES,
  discoverIntegration,
  endsGrant,
  loadOpenIdClient,
  OAuthError,
  toOAuthError,
  unionScopes,
  type Integration,
} from '../oauth/index.js';
import { equalDigests } from './browser-binding.js';
import { generationOf } from './person-generation.js';
import {
  mergeSchoolGrants,
  SCHOOL_GRANT_RECORD,
  SCHOOL_GRANTS,
  type GrantMerge,
  type SchoolGrant,
} from './school-grant.js';

export { SCHOOL_GRANT_RECORD, SCHOOL_GRANTS, type SchoolGrant } from './school-grant.js';

export interface SchoolIntegration extends Integration {
  /** `{public-url}/oauth/callback`, registered at the school. */
  readonly callback: string;
  /** What a first sign-in asks the school for; `openid profile` is always added, to know who signed in. */
  readonly scopes: readonly string[];
}

type SchoolCallbackOutcome =
  /** `generation` is the person's sign-in generation once their grant was settled (`person-generation.ts`). */
  | {
      readonly kind: 'signed-in';
      readonly uid: string;
      readonly grant: SchoolGrant;
      readonly generation: string;
      readonly stepUp?: StepUp;
    }
  | { readonly kind: 'denied'; readonly uid: string; readonly error: string; readonly stepUp?: StepUp }
  /** The person must consent to the union of their grants at the school: send the browser to `location`. */
  | { readonly kind: 'ask-again'; readonly location: URL }
  /** `stepUp`: the step-up this answer was for, which it ends (someone else signed in at the school). */
  | { readonly kind: 'refused'; readonly reason: string; readonly stepUp?: StepUp };

/**
 * The merge waits for a refresh of the same grant (which holds the lock while the school answers,
 * up to its 15 s limit), so that it never replaces a grant a refresher is about to save; longer
 * than the refresh's 30 s lock, so that a refresher that died cannot make a sign-in fail.
 */
const MERGE_LOCK: HoldingLockOptions = { ttlMs: 30_000, waitMs: 35_000, pollMs: 50 };
const SCHOOL_FLOWS = 'school-flow';
const FLOW_TTL_SECONDS = 600;

/** A request for more permission at the school, for one person who is already signed in. */
export interface StepUp {
  readonly id: string;
  readonly sub: string;
  /** What is granted so far plus what is needed: the school is asked for the union. */
  readonly scopes: readonly string[];
}

interface SchoolFlow {
  readonly uid: string;
  readonly stepUp?: StepUp;
  readonly verifier: string;
  readonly bindingDigest: string;
  readonly scopes: readonly string[];
  /** Set on the request for the union of a person's grants: the school must sign that person in, and is not asked again. */
  readonly unionFor?: string;
}

/** A sign-in under way as the store gives it back (ST-17). */
export const SCHOOL_FLOW_RECORD: RecordKind<SchoolFlow> = {
  namespace: SCHOOL_FLOWS,
  check: objectWith({
    uid: isText,
    stepUp: optional(objectWith({ id: isText, sub: isText, scopes: listOf(isText) })),
    verifier: isText,
    bindingDigest: isText,
    scopes: listOf(isText),
    unionFor: optional(isText),
  }),
};

export interface SchoolSignIn {
  /**
   * New tokens for a grant whose access token expired or was refused; the refresh token rotates
   * with them. The caller saves them, under the grant's lock (`shared-refresh.ts`). Rejects with
   * `OAUTH_SIGN_IN_REQUIRED` when the school ended the grant, and with another `OAuthError`
   * (network, school failure) when the failure may pass.
   */
  refresh(grant: SchoolGrant): Promise<SchoolGrant>;
  /** Revokes the grant's tokens at the school (RFC 7009); failures are the caller's to report. */
  revoke(grant: SchoolGrant): Promise<void>;
  /**
   * The school's authorization URL for the interaction `uid` (empty for a step-up), bound to the
   * browser's `binding`; a step-up asks for its scopes and must come back as the same person.
   */
  start(uid: string, binding: string, stepUp?: StepUp): Promise<URL>;
  /** The callback's verdict; `binding` is what the browser that arrived carries. */
  finish(callbackUrl: URL, binding: string | undefined): Promise<SchoolCallbackOutcome>;
}

/**
 * The refresh can never succeed again: the person must sign in at the school once more, the same
 * situation and code as a local refresh the school refused.
 */
function grantEnded(reason: string): OAuthError {
  return new OAuthError('OAUTH_SIGN_IN_REQUIRED', `This person's school sign-in is over (${reason}).`, {
    hint: 'Ask the user to connect the application to school-mcp again; they sign in at the school once more.',
  });
}

function bindingDigest(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url');
}

export function createSchoolSignIn(integration: SchoolIntegration, store: GrantStore, logger: Logger): SchoolSignIn {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= (async () => {
      return discoverIntegration(integration, logger);
    })().catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };

  /** Starts one request at the school: its flow kept under a fresh state, the URL to send the browser to. */
  const begin = async (flow: Omit<SchoolFlow, 'verifier'>): Promise<URL> => {
    const config = await configuration();
    const oidc = await loadOpenIdClient();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = randomBytes(32).toString('base64url');
    await store.write(SCHOOL_FLOWS, state, { ...flow, verifier }, { ttlSeconds: FLOW_TTL_SECONDS });
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: integration.callback,
      scope: flow.scopes.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
  };

  const revoke = async (grant: SchoolGrant): Promise<void> => {
    const config = await configuration();
    const oidc = await loadOpenIdClient();
    if (grant.refreshToken !== undefined)
      await oidc.tokenRevocation(config, grant.refreshToken, { token_type_hint: 'refresh_token' });
    await oidc.tokenRevocation(config, grant.accessToken, { token_type_hint: 'access_token' });
  };
  const revokeQuietly = (grant: SchoolGrant): Promise<void> =>
    revoke(grant).catch((error: unknown) =>
      logger.warn('the school did not confirm the revocation of a replaced grant', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );

  /**
   * The person's grant after `incoming`, decided and saved under the grant's lock, with their
   * sign-in generation read before the save (HOST-34 holds either way: a sign-out takes the school
   * grant before it writes a new generation). When the store fails before anything was written,
   * the new tokens are nobody's and the school ends them; after a write began, they may be saved.
   */
  const settle = async (
    incoming: SchoolGrant,
    mayAskAgain: boolean,
  ): Promise<{ merge: GrantMerge; generation: string }> => {
    let writing = false;
    try {
      for (;;) {
        const settled = await holdingLock(store, SCHOOL_GRANTS, incoming.sub, MERGE_LOCK, async (fence) => {
          const merge = mergeSchoolGrants(
            await readRecord(store, SCHOOL_GRANT_RECORD, incoming.sub),
            incoming,
            mayAskAgain,
          );
          const generation = await generationOf(store, incoming.sub);
          if (merge.kind === 'store') {
            writing = true;
            // Refused only when this lock ran out and a later holder wrote: decide again on what it wrote.
            if (!(await store.writeFenced(SCHOOL_GRANTS, incoming.sub, { ...merge.grant }, fence))) return undefined;
          }
          return { merge, generation };
        });
        if (settled !== undefined) return settled;
        writing = false;
      }
    } catch (error) {
      if (!writing) await revokeQuietly(incoming);
      throw error;
    }
  };

  return {
    async refresh(grant) {
      if (grant.refreshToken === undefined) throw grantEnded('the school gave no refresh token');
      const config = await configuration();
      const oidc = await loadOpenIdClient();
      let tokens: client.TokenEndpointResponse;
      try {
        tokens = await oidc.refreshTokenGrant(config, grant.refreshToken);
      } catch (error) {
        if (endsGrant(error)) throw grantEnded('the school ended this sign-in');
        // The school may not have seen it (a timeout, a 5xx): the grant stays for the next attempt.
        throw toOAuthError(error, 'refresh');
      }
      const now = Math.floor(Date.now() / 1000);
      const refreshed: SchoolGrant = {
        ...grant,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token ?? grant.refreshToken,
        ...(tokens.scope === undefined ? {} : { scopes: tokens.scope.split(' ').filter((scope) => scope !== '') }),
        ...(tokens.expires_in === undefined ? {} : { expiresAt: now + tokens.expires_in }),
      };
      return refreshed;
    },

    revoke,

    async start(uid, binding, stepUp) {
      const scopes = unionScopes(BASELINE_SCOPES, stepUp?.scopes ?? integration.scopes);
      return begin({ uid, bindingDigest: bindingDigest(binding), scopes, ...(stepUp === undefined ? {} : { stepUp }) });
    },

    async finish(callbackUrl, binding) {
      const state = callbackUrl.searchParams.get('state');
      if (state === null || state === '') return { kind: 'refused', reason: 'the answer carries no state' };
      // Taken once: a replayed answer finds nothing.
      const flow = await takeRecord(store, SCHOOL_FLOW_RECORD, state);
      if (flow === undefined)
        return {
          kind: 'refused',
          reason: 'no sign-in is waiting for this answer (expired, already used, or never started here)',
        };
      if (binding === undefined || !equalDigests(bindingDigest(binding), flow.bindingDigest)) {
        return { kind: 'refused', reason: 'this answer belongs to a sign-in started in another browser' };
      }
      const config = await configuration();
      const oidc = await loadOpenIdClient();
      const error = callbackUrl.searchParams.get('error');
      if (error !== null) {
        if (callbackUrl.searchParams.get('iss') !== config.serverMetadata().issuer)
          return { kind: 'refused', reason: 'the answer does not name the school as its issuer' };
        return {
          kind: 'denied',
          uid: flow.uid,
          error: error === 'access_denied' ? 'access_denied' : 'server_error',
          ...(flow.stepUp === undefined ? {} : { stepUp: flow.stepUp }),
        };
      }
      let tokens: client.TokenEndpointResponse;
      try {
        // Checks `iss` (RFC 9207 §2.4, the school advertises it) and the state before the exchange.
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: state,
        });
      } catch (failure) {
        return {
          kind: 'refused',
          reason: `the school's answer was not accepted: ${failure instanceof Error ? failure.message : String(failure)}`,
        };
      }
      const claims = await oidc.fetchUserInfo(config, tokens.access_token, oidc.skipSubjectCheck);
      const now = Math.floor(Date.now() / 1000);
      const grant: SchoolGrant = {
        sub: claims.sub,
        ...(typeof claims.name === 'string' ? { name: claims.name } : {}),
        ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
        ...(Array.isArray(claims.roles)
          ? { roles: claims.roles.filter((role): role is string => typeof role === 'string') }
          : {}),
        accessToken: tokens.access_token,
        ...(tokens.refresh_token === undefined ? {} : { refreshToken: tokens.refresh_token }),
        scopes: (tokens.scope ?? flow.scopes.join(' ')).split(' ').filter((scope) => scope !== ''),
        ...(tokens.expires_in === undefined ? {} : { expiresAt: now + tokens.expires_in }),
      };
      const expected = flow.stepUp?.sub ?? flow.unionFor;
      if (expected !== undefined && expected !== grant.sub) {
        // Someone else signed in at the school: their grant must not become this person's.
        await revokeQuietly(grant);
        return {
          kind: 'refused',
          reason: 'the school signed in another person than the one this permission was asked for',
          ...(flow.stepUp === undefined ? {} : { stepUp: flow.stepUp }),
        };
      }
      const { merge, generation } = await settle(grant, flow.unionFor === undefined);
      if (merge.discard !== undefined) await revokeQuietly(merge.discard);
      if (merge.kind === 'ask-for-union') {
        // The same browser carries the same binding to the second answer.
        const location = await begin({
          uid: flow.uid,
          bindingDigest: flow.bindingDigest,
          scopes: merge.scopes,
          unionFor: grant.sub,
          ...(flow.stepUp === undefined ? {} : { stepUp: flow.stepUp }),
        });
        return { kind: 'ask-again', location };
      }
      return {
        kind: 'signed-in',
        uid: flow.uid,
        grant: merge.grant,
        generation,
        ...(flow.stepUp === undefined ? {} : { stepUp: flow.stepUp }),
      };
    },
  };
}
