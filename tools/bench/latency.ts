/**
 * Per-call latency at a given concurrency: `concurrency` workers each make calls back to back
 * until `calls` are done, and every call's duration is kept. One round gives one p50 and one p99;
 * rounds alternate between the callers, so that a busy moment of the machine hits all of them.
 */
import type { ContenderId, LatencyCell, Measured } from './results.js';
import { percentile, spreadOf } from './stats.js';

export type CallOnce = () => Promise<void>;

export interface LatencyPlan {
  readonly rounds: number;
  readonly warmup: number;
  readonly calls: number;
  readonly concurrency: number;
}

export async function timeCalls(call: CallOnce, calls: number, concurrency: number): Promise<number[]> {
  const durations: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < calls) {
      started += 1;
      const begin = performance.now();
      await call();
      durations.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls) }, worker));
  return durations;
}

export async function measureLatencies(
  callers: ReadonlyMap<ContenderId, CallOnce>,
  plan: LatencyPlan,
): Promise<Map<ContenderId, Measured<LatencyCell>>> {
  const results = new Map<ContenderId, Measured<LatencyCell>>();
  const working = new Map<ContenderId, CallOnce>();
  for (const [id, call] of callers) {
    try {
      await timeCalls(call, Math.max(1, plan.warmup), plan.concurrency);
      working.set(id, call);
    } catch (error) {
      results.set(id, { ok: false, reason: reasonOf(error) });
    }
  }
  const p50s = new Map<ContenderId, number[]>();
  const p99s = new Map<ContenderId, number[]>();
  for (let round = 0; round < plan.rounds; round++) {
    for (const [id, call] of working) {
      if (results.has(id)) continue;
      try {
        const durations = await timeCalls(call, plan.calls, plan.concurrency);
        p50s.set(id, [...(p50s.get(id) ?? []), percentile(durations, 0.5)]);
        p99s.set(id, [...(p99s.get(id) ?? []), percentile(durations, 0.99)]);
      } catch (error) {
        results.set(id, { ok: false, reason: reasonOf(error) });
      }
    }
  }
  for (const id of working.keys()) {
    if (results.has(id)) continue;
    results.set(id, {
      ok: true,
      value: { p50: spreadOf(p50s.get(id) ?? []), p99: spreadOf(p99s.get(id) ?? []), calls: plan.calls * plan.rounds },
    });
  }
  return results;
}

export function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}
