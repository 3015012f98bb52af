/**
 * The memory aim reads the long run of the same process; the token aims are judged on what a model receives (names, descriptions, input schemas), against
 * the smallest peer of each configuration, as the bench's summary shows them.
 */
import { describe, expect, it } from 'vitest';
import { performanceAims } from '../../tools/bench/performance-aims.js';
import type {
  BenchResults,
  ContextCell,
  ContextRow,
  LatencyCell,
  LatencyRow,
  Measured,
} from '../../tools/bench/results.js';

function cell(modelTokens: number, tokens = modelTokens * 2): Measured<ContextCell> {
  return { ok: true, value: { tools: 1, bytes: tokens * 4, tokens, modelTokens, as: 'test' } };
}

function resultsWith(context: ContextRow[], memory: BenchResults['memory'] = {}): BenchResults {
  return {
    machine: { cpu: 'test', cores: 2, memoryBytes: 1, platform: 'linux', arch: 'x64', loadAverage: [0, 0, 0] },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationS: 1,
    quick: true,
    versions: {},
    tokenizer: 'test',
    readOperation: 'GET /',
    coldStart: [],
    context,
    latency: [],
    memory,
    scale: [],
    hostile: [],
    peerProblems: [],
    notes: [],
  } as unknown as BenchResults;
}

function verdict(lines: string[], start: string): string {
  return lines.find((line) => line.startsWith(`- Tokens given to the model, ${start}`)) ?? 'missing';
}

describe('the token aims', () => {
  it('judge each configuration on the model part against the smallest peer, leaving the wire tokens aside', () => {
    const lines = performanceAims(
      resultsWith([
        {
          configuration: 'default',
          cells: { 'school-mcp': cell(400, 9_000), ivotoby: cell(1_000), generated: cell(900) },
        },
        {
          configuration: '`--toolsets all`',
          cells: { 'school-mcp': cell(1_000, 50_000), ivotoby: cell(990), generated: cell(2_000) },
        },
        { configuration: '`--toolsets dynamic`', cells: { 'school-mcp': cell(240), ivotoby: cell(200) } },
      ]),
    );
    expect(verdict(lines, 'default')).toMatch(/\(400 tokens; aim 450 tokens\): \*\*met\*\*/);
    expect(verdict(lines, '`--toolsets all`')).toMatch(/\(1000 tokens; aim 990 tokens\): \*\*not met\*\*/);
    expect(verdict(lines, '`--toolsets dynamic`')).toMatch(/\(240 tokens; aim 240 tokens\): \*\*met\*\*/);
  });

  it('says "not measured" when a peer or the tokenizer gave no figure', () => {
    const lines = performanceAims(
      resultsWith([
        {
          configuration: 'default',
          cells: { 'school-mcp': cell(400), ivotoby: { ok: false, reason: 'did not start' } },
        },
      ]),
    );
    expect(verdict(lines, 'default')).toMatch(/not measured$/);
    expect(verdict(lines, '`--toolsets all`')).toMatch(/not measured$/);
  });
});

describe('the long-run memory aim', () => {
  const MiB = 2 ** 20;
  const memoryAfter = (afterAll: number, afterLong?: number) =>
    performanceAims(
      resultsWith([], {
        'school-mcp': {
          ok: true,
          value: {
            afterStart: 50 * MiB,
            afterHalf: 100 * MiB,
            afterAll: afterAll * MiB,
            calls: 10_000,
            ...(afterLong === undefined ? {} : { afterLong: { bytes: afterLong * MiB, calls: 40_000 } }),
          },
        },
      }),
    ).find((line) => line.startsWith('- No growth')) ?? 'missing';

  it('is met within 5 % of the reading after the memory row, and not beyond', () => {
    expect(memoryAfter(100, 104)).toMatch(/from 10,000 to 40,000 calls .*\(104 MiB; aim 105 MiB\): \*\*met\*\*/);
    expect(memoryAfter(100, 120)).toMatch(/\*\*not met\*\*/);
  });

  it('is not measured without a long run', () => {
    expect(memoryAfter(100)).toMatch(/not measured$/);
  });
});

describe('the added-p50 aims', () => {
  const p50 = (ms: number): Measured<LatencyCell> => ({
    ok: true,
    value: { p50: { median: ms, min: ms, max: ms }, p99: { median: ms, min: ms, max: ms } } as LatencyCell,
  });
  const withLatency = (latency: LatencyRow[]) => ({ ...resultsWith([]), latency }) as BenchResults;

  it("keep the verdict on school-mcp's added p50 and state the bare SDK server's beside it", () => {
    const lines = performanceAims(
      withLatency([
        { transport: 'stdio', concurrency: 1, cells: { direct: p50(1), 'school-mcp': p50(1.2), 'bare-sdk': p50(1.1) } },
        { transport: 'HTTP', concurrency: 1, cells: { direct: p50(1), 'school-mcp': p50(4), 'bare-sdk': p50(3.5) } },
      ]),
    );
    expect(lines).toContain(
      '- Added p50 over stdio at concurrency 1 at most 0.3 ms (the bare SDK server adds 0.10 ms) (0.20 ms; aim 0.30 ms): **met**',
    );
    expect(lines).toContain(
      '- Added p50 over HTTP at concurrency 1 at most 1 ms (the bare SDK server adds 2.50 ms) (3.00 ms; aim 1.00 ms): **not met**',
    );
  });

  it('show a dash for the floor when the bare SDK server was not measured, without changing the verdict', () => {
    const lines = performanceAims(
      withLatency([
        {
          transport: 'stdio',
          concurrency: 1,
          cells: { direct: p50(1), 'school-mcp': p50(1.2), 'bare-sdk': { ok: false, reason: 'did not start' } },
        },
      ]),
    );
    expect(lines).toContain(
      '- Added p50 over stdio at concurrency 1 at most 0.3 ms (the bare SDK server adds –) (0.20 ms; aim 0.30 ms): **met**',
    );
  });
});
