/**
 * A step-up waiting for its person: made when a tool call of theirs needs a scope they have not
 * granted, and reached only through its single-use link, sent to that person's session alone.
 */
export const STEP_UPS = 'step-up';
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
