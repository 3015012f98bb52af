/**
 * The school's answer to a sign-in, kept for the end of its interaction: the callback writes it,
 * and `/consent/<uid>/finish`, in the browser the interaction belongs to, takes it once.
 */
import { isText, objectWith, optional, type RecordKind } from '../grant-store/index.js';

export const CONSENT_RESULTS = 'consent-result';

export interface ConsentResult {
  readonly sub?: string;
  /** The person's sign-in generation when their school grant was settled. */
  readonly generation?: string;
  readonly error?: string;
}

const isResultFields = objectWith({ sub: optional(isText), generation: optional(isText), error: optional(isText) });

/** A sign-in's result as the store gives it back (ST-17): a person who signed in, or an error. */
export const CONSENT_RESULT_RECORD: RecordKind<ConsentResult> = {
  namespace: CONSENT_RESULTS,
  check: (value): value is ConsentResult =>
    isResultFields(value) && (value.sub !== undefined || value.error !== undefined),
};
