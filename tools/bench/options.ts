/** The bench's command line. Pure. */

export interface BenchCounts {
  /** Cold starts per server and document (interleaved, so drift hits every server alike). */
  readonly coldStartRuns: number;
  readonly coldStartRunsLarge: number;
  /** Untimed starts of each server before its timed ones, so that the disk cache is warm for all alike. */
  readonly coldStartWarmup: number;
  /** Rounds of the latency measurement; each round gives one p50 and one p99. */
  readonly latencyRounds: number;
  readonly latencyWarmup: number;
  readonly latencyCalls: number;
  /** Calls between the resident-set readings of the memory row. */
  readonly memoryCalls: number;
  /** school-mcp's calls in all, for the reading that shows whether memory still grows after `memoryCalls`. */
  readonly longMemoryCalls: number;
  readonly scaleRuns: number;
  readonly scaleSizes: readonly number[];
  /** Operations per scale document whose schemas are compiled, an even spread of them; all when infinite. */
  readonly scaleCompiledOperations: number;
  /** Starts per hostile document and configuration. */
  readonly hostileRuns: number;
}

export interface BenchOptions {
  readonly counts: BenchCounts;
  readonly quick: boolean;
  /** Measure the peers too (installs the bench's manifest on first use). */
  readonly peers: boolean;
  /** Where the report is written. */
  readonly out: string;
  /** Measure one section alone and replace it in the report already at `out`. */
  readonly only?: 'startup' | 'hostile' | 'agent' | 'hosted' | 'scale';
  /** The school-mcp entry point the agent session runs, when not this build's (a "before" figure). */
  readonly agentServer?: string;
  /** Where the agent session's whole record is written as JSON, for checks on the same run. */
  readonly agentRecord?: string;
}

const FULL_COUNTS: BenchCounts = {
  coldStartRuns: 9,
  // The shared machine's speed swings by a fifth from minute to minute; five starts left a
  // large document's median at the mercy of one slow spell.
  coldStartRunsLarge: 9,
  coldStartWarmup: 1,
  latencyRounds: 3,
  latencyWarmup: 200,
  latencyCalls: 1_000,
  memoryCalls: 10_000,
  longMemoryCalls: 40_000,
  scaleRuns: 5,
  scaleSizes: [10, 100, 1_000, 3_000],
  scaleCompiledOperations: Number.POSITIVE_INFINITY,
  hostileRuns: 3,
};

export const QUICK_COUNTS: BenchCounts = {
  coldStartRuns: 1,
  coldStartRunsLarge: 1,
  // Quick runs time nothing worth warming for; a GitHub or Kubernetes start costs seconds of CPU.
  coldStartWarmup: 0,
  latencyRounds: 1,
  latencyWarmup: 2,
  latencyCalls: 16,
  memoryCalls: 32,
  longMemoryCalls: 64,
  scaleRuns: 1,
  scaleSizes: [10, 100, 1_000, 3_000],
  // Compiling every schema of the 3,000-operation and GitHub documents was most of a quick run's CPU.
  scaleCompiledOperations: 50,
  hostileRuns: 1,
};

export const BENCH_USAGE = `usage: npm run bench -- [--quick] [--no-peers] [--only startup|hostile|agent|hosted|scale] [--agent-server FILE] [--agent-record FILE] [--out FILE]

  --quick          tiny counts: checks that every row can be produced, measures nothing reliably
  --no-peers       school-mcp, the bare SDK server and the direct call only (no install)
  --only startup   the "Cold start" rows alone (school-mcp, the bare SDK server and the peers side by side),
                   replaced in the report at --out
  --only hostile   the "Hostile documents" rows alone, replaced in the report at --out
  --only agent     the "Agent session" rows alone (the 15 administrator tasks), likewise
  --agent-server FILE
                   the school-mcp main.js the agent session runs (default: this build's)
  --agent-record FILE
                   also writes the agent session's record (tool list, calls, consent prompts) as JSON
  --only hosted    the "Hosted mode" row alone, likewise
  --only scale     the "Hosted scale-out" rows alone (1 instance on a directory store, 1 on Redis, 3 on
                   Redis behind haproxy; needs redis-server and haproxy), likewise
  --out FILE       where to write the report (default BENCHMARKS.md in the project)
`;

export function parseBenchArgs(
  args: readonly string[],
  defaultOut: string,
): BenchOptions | { help: true } | { error: string } {
  let quick = false;
  let peers = true;
  let out = defaultOut;
  let only: 'startup' | 'hostile' | 'agent' | 'hosted' | 'scale' | undefined;
  let agentServer: string | undefined;
  let agentRecord: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--quick') quick = true;
    else if (arg === '--no-peers') peers = false;
    else if (arg === '--help' || arg === '-h') return { help: true };
    else if (arg === '--only') {
      const value = args[++index];
      if (value !== 'startup' && value !== 'hostile' && value !== 'agent' && value !== 'hosted' && value !== 'scale')
        return { error: '--only takes: startup, hostile, agent, hosted, scale' };
      only = value;
    } else if (arg === '--agent-server') {
      const value = args[++index];
      if (value === undefined || value.startsWith('--')) return { error: '--agent-server needs a file' };
      agentServer = value;
    } else if (arg === '--agent-record') {
      const value = args[++index];
      if (value === undefined || value.startsWith('--')) return { error: '--agent-record needs a file' };
      agentRecord = value;
    } else if (arg === '--out') {
      const value = args[++index];
      if (value === undefined || value.startsWith('--')) return { error: '--out needs a file' };
      out = value;
    } else return { error: `unknown argument ${arg}` };
  }
  return {
    counts: quick ? QUICK_COUNTS : FULL_COUNTS,
    quick,
    peers,
    out,
    ...(only === undefined ? {} : { only }),
    ...(agentServer === undefined ? {} : { agentServer }),
    ...(agentRecord === undefined ? {} : { agentRecord }),
  };
}
