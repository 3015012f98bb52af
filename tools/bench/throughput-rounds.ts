/**
 * Calls per second and per-call latency of connections that each call back to back: a warm-up,
 * then rounds in which every connection makes its calls one after another, all connections at
 * once. Every call's duration is kept; calls per second is all calls over the round's wall time.
 * The hosted row and the scale-out rows measure their deployments with it.
 */
import { percentile, spreadOf, type Spread } from './stats.js';

export interface ThroughputPlan {
  readonly rounds: number;
  readonly warmup: number;
  /** Calls per connection per round. */
  readonly callsPerUser: number;
}

export interface ThroughputCell {
  readonly callsPerSecond: Spread;
  readonly p50: Spread;
  readonly p99: Spread;
  readonly calls: number;
}

export async function measureThroughput<C>(
  clients: readonly C[],
  callOnce: (client: C) => Promise<void>,
  plan: ThroughputPlan,
  announceRound: (round: number) => void,
): Promise<ThroughputCell> {
  await Promise.all(
    clients.map(async (client) => {
      for (let call = 0; call < plan.warmup; call++) await callOnce(client);
    }),
  );
  const rates: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    announceRound(round);
    const durations: number[] = [];
    const began = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (let call = 0; call < plan.callsPerUser; call++) {
          const start = performance.now();
          await callOnce(client);
          durations.push(performance.now() - start);
        }
      }),
    );
    rates.push(durations.length / ((performance.now() - began) / 1000));
    p50s.push(percentile(durations, 0.5));
    p99s.push(percentile(durations, 0.99));
  }
  return {
    callsPerSecond: spreadOf(rates),
    p50: spreadOf(p50s),
    p99: spreadOf(p99s),
    calls: plan.rounds * plan.callsPerUser * clients.length,
  };
}
