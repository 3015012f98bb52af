/**
 * A step-up waiting for its person: made when a tool call of theirs needs a scope they have not
 * granted, and reached only through its single-use link, sent to that person's session alone.
 * Two records: the link's (by its id, taken once when the person continues to the school) and the
 * flow's (by `flowId` of the link, kept until it expires), which any instance on the store reads
 * to wait for the approval, to resume a client's retry, and to word the page the person lands on.
 */
import type { ConsentReach } from '../consent/index.js';
import { isFiniteNumber, isText, listOf, objectWith, oneOf, optional, type RecordKind } from '../grant-store/index.js';
import { missingScopes, unionScopes } from '../oauth/index.js';

export const STEP_UPS = 'step-up';
export const STEP_UP_FLOWS = 'step-up-flow';
export const STEP_UP_PREFIX = '/step-up/';
/** Long enough to read the result, open the link and sign in; the next call makes a new one. */
export const STEP_UP_TTL_SECONDS = 600;

export interface PendingStepUp {
  readonly sub: string;
  /** What is granted plus what is needed. */
  readonly scopes: readonly string[];
  /** What is needed and not granted, for the page. */
  readonly missing: readonly string[];
}

/** One step-up as the calls that wait for it see it: a `PendingConsent` plus whose it is and how it went. */
export interface StepUpFlow {
  /** The link's id: the `STEP_UPS` record, while the link is unused. */
  readonly id: string;
  readonly sub: string;
  readonly url: string;
  readonly scopes: readonly string[];
  readonly newScopes: readonly string[];
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly expiresAt: number;
  /** How the person learns that the approval is done; a link in a result until a call says it waits. */
  readonly reach?: ConsentReach;
  /** The person declined, in the conversation or at the school; or someone else signed in at the school with its link. */
  readonly ended?: 'denied' | 'other-person';
}

/** A step-up link's record as the store gives it back (ST-17). */
export const PENDING_STEP_UP_RECORD: RecordKind<PendingStepUp> = {
  namespace: STEP_UPS,
  check: objectWith({ sub: isText, scopes: listOf(isText), missing: listOf(isText) }),
};

/** A step-up flow's record as the store gives it back (ST-17). */
export const STEP_UP_FLOW_RECORD: RecordKind<StepUpFlow> = {
  namespace: STEP_UP_FLOWS,
  check: objectWith({
    id: isText,
    sub: isText,
    url: isText,
    scopes: listOf(isText),
    newScopes: listOf(isText),
    startedAt: isFiniteNumber,
    expiresAt: isFiniteNumber,
    reach: optional(oneOf('call-waits', 'ask-again')),
    ended: optional(oneOf('denied', 'other-person')),
  }),
};

/** The link of a step-up: `{public-url}/step-up/<id>`. */
export function stepUpLink(publicBase: string, id: string): string {
  return `${publicBase}${STEP_UP_PREFIX}${id}`;
}

/** Pure: what the school is asked for (granted ∪ needed) and what is new, for a person's grant. */
export function planStepUp(
  granted: readonly string[],
  needed: readonly string[],
): { readonly scopes: readonly string[]; readonly missing: readonly string[] } {
  const missing = missingScopes(granted, needed);
  return { scopes: unionScopes(granted, missing), missing };
}

/** Pure: seconds a rewritten flow record keeps of its life, `undefined` once it is over. */
export function remainingTtlSeconds(flow: Pick<StepUpFlow, 'expiresAt'>, now: number): number | undefined {
  const seconds = Math.ceil((flow.expiresAt - now) / 1000);
  return seconds > 0 ? seconds : undefined;
}
