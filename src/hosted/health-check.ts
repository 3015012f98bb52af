/**
 * What a load balancer asks an instance: `GET /healthz` (is the process serving?) and
 * `GET /readyz` (should it get new requests?). Both sit at the root whatever the public URL's
 * path, answer whatever the `Host` (a balancer checks by IP), and say one word and nothing else.
 * @see SECURITY.md SCL-01
 */

const HEALTH_PATH = '/healthz';
const READY_PATH = '/readyz';

export type ProbeKind = 'health' | 'ready';

/** Why an instance should or should not get new requests. */
export type Readiness = 'ready' | 'draining' | 'store_unavailable';

export interface ProbeAnswer {
  readonly status: 200 | 405 | 503;
  readonly body: { readonly status: string } | { readonly error: string };
}

/** Pure: which probe a request target names, by its path alone (a query is ignored). */
export function probeKindOf(target: string | undefined): ProbeKind | undefined {
  const path = (target ?? '').split('?', 1)[0];
  if (path === HEALTH_PATH) return 'health';
  if (path === READY_PATH) return 'ready';
  return undefined;
}

/** Pure: draining wins over the store, so a stopping instance is taken out whatever its store says. */
export function readinessOf(state: { readonly draining: boolean; readonly storeAnswers: boolean }): Readiness {
  if (state.draining) return 'draining';
  return state.storeAnswers ? 'ready' : 'store_unavailable';
}

const NOT_ALLOWED: ProbeAnswer = { status: 405, body: { error: 'method_not_allowed' } };

function probeMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** Pure: `/healthz`: the process serves, so it is healthy, draining or not. */
export function healthAnswer(method: string | undefined): ProbeAnswer {
  return probeMethod(method) ? { status: 200, body: { status: 'ok' } } : NOT_ALLOWED;
}

/** Pure: `/readyz`: 200 only when ready; the reason otherwise, as one word. */
export function readyAnswer(method: string | undefined, readiness: Readiness): ProbeAnswer {
  if (!probeMethod(method)) return NOT_ALLOWED;
  return { status: readiness === 'ready' ? 200 : 503, body: { status: readiness } };
}
