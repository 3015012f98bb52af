/**
 * Whether the store answers, for `/readyz`: one ping, and its verdict kept for a second, so a
 * storm of checks (a balancer per instance, several balancers) costs the store one PING a second
 * per instance. Checks that arrive while a ping is out share it.
 * @see SECURITY.md SCL-01
 */

/** Long enough to absorb a check storm, short enough that an outage shows within a balancer's interval. */
const READINESS_CACHE_MS = 1000;

export interface StoreReadinessOptions {
  readonly ping: () => Promise<void>;
  readonly cacheMs?: number;
  /** Milliseconds; tests move it. */
  readonly now?: () => number;
}

/** Pure: whether a verdict taken at `checkedAt` still stands at `now`. */
export function verdictStillFresh(checkedAt: number | undefined, now: number, cacheMs: number): boolean {
  return checkedAt !== undefined && now >= checkedAt && now - checkedAt < cacheMs;
}

export function createStoreReadiness(options: StoreReadinessOptions): () => Promise<boolean> {
  const cacheMs = options.cacheMs ?? READINESS_CACHE_MS;
  const now = options.now ?? Date.now;
  let verdict: { answers: boolean; checkedAt: number } | undefined;
  let pending: Promise<boolean> | undefined;
  return async () => {
    if (verdict !== undefined && verdictStillFresh(verdict.checkedAt, now(), cacheMs)) return verdict.answers;
    pending ??= options
      .ping()
      .then(
        () => true,
        () => false,
      )
      .then((answers) => {
        verdict = { answers, checkedAt: now() };
        pending = undefined;
        return answers;
      });
    return pending;
  };
}
