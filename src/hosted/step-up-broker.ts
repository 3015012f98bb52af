/**
 * One person's step-up as consent's `ConsentBroker`, so that hosted tool calls run through the
 * same pipeline as local ones (`createConsentCaller`: a declared scope or a 403
 * `insufficient_scope` asked for, the step-up budget, progress, the words). A step-up is a
 * single-use link to school-mcp's own page, for this person only; its flow record is in the store,
 * so any instance can wait for it or resume a client's retry of it. The approval arrives as the
 * person's grant in the store, which may be Redis shared by instances: it is read now and then,
 * not watched.
 * @see SECURITY.md HOST-15, HOST-37
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { flowId, type ConsentBroker, type ConsentOutcome, type PendingConsent } from '../consent/index.js';
import { SchoolMcpError } from '../errors.js';
import { readRecord, type GrantStore } from '../grant-store/index.js';
import type { SchoolGrant } from './school-sign-in.js';
import {
  planStepUp,
  remainingTtlSeconds,
  STEP_UP_FLOW_RECORD,
  STEP_UP_FLOWS,
  STEP_UP_TTL_SECONDS,
  STEP_UPS,
  type PendingStepUp,
  type StepUpFlow,
} from './step-up-record.js';
import { isStepUpRequired } from './step-up-required.js';

/** The first look again at the grant, and the longest between two looks while the person takes their time. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1_000;

export interface StepUpLinks {
  readonly store: GrantStore;
  /** `{public-url}/step-up/<id>`. */
  readonly link: (id: string) => string;
  /** Told of each step-up written, with the scopes it adds (the audit log's `step_up asked`). */
  readonly opened?: (missing: readonly string[]) => void;
}

/** Writes a new step-up for `sub`, asking the school for what is granted plus what is needed. */
export async function openStepUp(
  { store, link, opened }: StepUpLinks,
  sub: string,
  granted: readonly string[],
  needed: readonly string[],
): Promise<PendingConsent> {
  const { scopes, missing } = planStepUp(granted, needed);
  const id = randomBytes(24).toString('base64url');
  const startedAt = Date.now();
  const flow: StepUpFlow = {
    id,
    sub,
    url: link(id),
    scopes,
    newScopes: missing,
    startedAt,
    expiresAt: startedAt + STEP_UP_TTL_SECONDS * 1000,
  };
  await store.write(STEP_UP_FLOWS, flowId(flow.url), { ...flow }, { ttlSeconds: STEP_UP_TTL_SECONDS });
  const pending: PendingStepUp = { sub, scopes, missing };
  await store.write(STEP_UPS, id, { ...pending }, { ttlSeconds: STEP_UP_TTL_SECONDS });
  opened?.(missing);
  return consentOf(flow);
}

/**
 * What a call waiting on a step-up answers once someone else signed in at the school with its link
 * (HOST-60). Not `OAUTH_CALLBACK_REJECTED`, whose next step is to start again: here the right
 * person has to be the one who signs in, which a sign-in on one's own computer never asks.
 */
function otherPersonSignedIn(): SchoolMcpError {
  return new SchoolMcpError(
    'HOSTED_STEP_UP_OTHER_PERSON',
    'At the school, someone other than the person this permission was asked for signed in, so nothing was granted and the link is used up.',
    {
      hint: 'Call the tool again for a new link, and have the person it is for sign in at the school themselves (signing out of the school first if someone else is signed in in that browser).',
    },
  );
}

function consentOf(flow: StepUpFlow): PendingConsent {
  return {
    url: flow.url,
    scopes: flow.scopes,
    newScopes: flow.newScopes,
    startedAt: flow.startedAt,
    expiresAt: flow.expiresAt,
  };
}

export interface StepUpBrokerOptions extends StepUpLinks {
  readonly sub: string;
  /** The person's grant as the store has it now; rejects when they must connect again. */
  readonly grant: () => Promise<SchoolGrant>;
}

export function createStepUpBroker(options: StepUpBrokerOptions): ConsentBroker {
  const { store, sub } = options;
  /** By link: one watch of the store per flow, however many calls wait for it. */
  const outcomes = new Map<string, Promise<ConsentOutcome>>();

  const flowRecord = async (flow: string): Promise<StepUpFlow | undefined> => {
    const record = await readRecord(store, STEP_UP_FLOW_RECORD, flow);
    // A flow id is not a secret: another person's flow is none of this person's calls' business.
    return record?.sub === sub ? record : undefined;
  };
  const update = async (
    consent: PendingConsent,
    change: Pick<StepUpFlow, 'reach'> | Pick<StepUpFlow, 'ended'>,
  ): Promise<StepUpFlow | undefined> => {
    const key = flowId(consent.url);
    const flow = await flowRecord(key);
    const ttlSeconds = flow === undefined ? undefined : remainingTtlSeconds(flow, Date.now());
    if (flow === undefined || ttlSeconds === undefined) return undefined;
    await store.write(STEP_UP_FLOWS, key, { ...flow, ...change }, { ttlSeconds });
    return flow;
  };

  /** Granted once the grant holds what was new; denied once the flow says so; else another look later. */
  const look = async (consent: PendingConsent): Promise<ConsentOutcome | undefined> => {
    const grant = await options.grant().catch(() => undefined);
    const needed = consent.newScopes.length > 0 ? consent.newScopes : consent.scopes;
    if (grant !== undefined && needed.every((scope) => grant.scopes.includes(scope))) return { kind: 'granted' };
    const ended = (await flowRecord(flowId(consent.url)))?.ended;
    if (ended === 'other-person') return { kind: 'failed', error: otherPersonSignedIn() };
    return ended === 'denied' ? { kind: 'denied' } : undefined;
  };
  const watch = async (consent: PendingConsent): Promise<ConsentOutcome> => {
    let pause = POLL_FIRST_MS;
    while (Date.now() < consent.expiresAt) {
      // The store away for a moment is not an answer: look again.
      const verdict = await look(consent).catch(() => undefined);
      if (verdict !== undefined) return verdict;
      // Unref'd: a flow nobody approves does not keep a stopping process alive.
      await delay(Math.min(pause, Math.max(1, consent.expiresAt - Date.now())), undefined, { ref: false });
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
    // The local sign-in's code: the approval was not finished in time, and calling again asks anew.
    return {
      kind: 'failed',
      error: new SchoolMcpError(
        'OAUTH_CONSENT_TIMEOUT',
        'The approval at the school was not completed before its link expired.',
        { hint: 'Call the tool again for a new link.' },
      ),
    };
  };

  return {
    person: sub,
    pendingOf: (error) => (isStepUpRequired(error) ? error.consent : undefined),

    async stepUp(scopes) {
      const grant = await options.grant();
      // Authoritative (RFC 6750 §3.1): when the grant holds them all, the refusal is the school's, and the budget decides.
      if (scopes.every((scope) => grant.scopes.includes(scope))) return 'granted';
      return openStepUp(options, sub, grant.scopes, scopes);
    },

    outcome(consent) {
      let outcome = outcomes.get(consent.url);
      if (outcome === undefined) {
        outcome = watch(consent).finally(() => outcomes.delete(consent.url));
        outcomes.set(consent.url, outcome);
      }
      return outcome;
    },

    async decline(consent) {
      const flow = await update(consent, { ended: 'denied' });
      // The link dies with the answer: nobody continues to the school from it.
      if (flow !== undefined) await store.remove(STEP_UPS, flow.id);
    },

    canOpenBrowser: () => false,
    async openBrowser() {
      // The person is somewhere else than the server: the link reaches them through their client.
    },

    async rejoin(flow) {
      const record = await flowRecord(flow);
      // A declined one too: its outcome is the answer to the retry.
      return record === undefined || record.expiresAt <= Date.now() ? undefined : consentOf(record);
    },

    async noteReach(consent, reach) {
      await update(consent, { reach });
    },
  };
}
