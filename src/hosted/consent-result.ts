/**
 * The school's answer to a sign-in, kept for the end of its interaction: the callback writes it,
 * and `/consent/<uid>/finish`, in the browser the interaction belongs to, takes it once.
 */

export const CONSENT_RESULTS = 'consent-result';

export interface ConsentResult {
  readonly sub?: string;
  /** The person's sign-in generation when their school grant was settled. */
  readonly generation?: string;
  readonly error?: string;
}
