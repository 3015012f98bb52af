/**
 * The authorization response, judged before anything acts on it. Pure.
 * Order (RFC 9207 §2.4, RFC 9700 §4.4): `iss` first, then `state`, then the rest; on an `iss`
 * mismatch the `error` parameters are never read. A response whose `state` is not ours cannot be
 * attributed to the flow, so it is refused without ending the flow (LB-04c).
 */

export interface ExpectedCallback {
  issuer: string;
  state: string;
  /** RFC 9207 §2.3 `authorization_response_iss_parameter_supported`: `iss` must then be present. */
  issRequired: boolean;
}

export type CallbackVerdict =
  | { kind: 'code'; code: string }
  | { kind: 'error'; error: string }
  /** Ours (right `state`) but unusable: the flow ends, nothing is exchanged. */
  | { kind: 'fail'; reason: string }
  /** Not attributable to the flow: answered with 400, the flow keeps waiting. */
  | { kind: 'ignore'; reason: string };

/** Parameters that may appear once only (RFC 6749 §3.1). */
const SINGLE_VALUED = ['iss', 'state', 'code', 'error', 'error_description', 'error_uri'];

export function validateCallback(query: URLSearchParams, expected: ExpectedCallback): CallbackVerdict {
  const issValues = query.getAll('iss');
  let issProblem: string | undefined;
  if (issValues.length > 1) issProblem = 'iss repeated';
  else if (issValues.length === 1) {
    // Simple string comparison, no normalisation (RFC 9207 §2.4, RFC 3986 §6.2.1).
    if (issValues[0] !== expected.issuer) issProblem = 'iss does not match the issuer';
  } else if (expected.issRequired) issProblem = 'iss missing';

  const states = query.getAll('state');
  if (states.length !== 1 || states[0] !== expected.state) {
    return {
      kind: 'ignore',
      reason: states.length > 1 ? 'state repeated' : states.length === 0 ? 'state missing' : 'state does not match',
    };
  }
  if (issProblem) return { kind: 'fail', reason: issProblem };
  for (const name of SINGLE_VALUED) {
    if (query.getAll(name).length > 1) return { kind: 'fail', reason: `${name} repeated` };
  }
  // Code flow only (RFC 9700 §2.1.2): JARM, implicit and hybrid responses are refused.
  for (const name of ['response', 'id_token', 'access_token', 'token']) {
    if (query.has(name)) return { kind: 'fail', reason: `unexpected ${name} parameter` };
  }
  const error = query.get('error');
  if (error !== null) return { kind: 'error', error };
  const code = query.get('code');
  if (!code) return { kind: 'fail', reason: 'code missing' };
  return { kind: 'code', code };
}
