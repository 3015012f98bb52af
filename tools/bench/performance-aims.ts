/**
 * The performance aims (against the best peer and the direct call), judged on every run from the figures of that run:
 * each against the best peer measured beside school-mcp, or against a fixed bound. Pure.
 */
import type { BenchResults, ContenderId, ContextRow, LatencyCell, Measured, MemoryCell, ScaleRow } from './results.js';
import { linearFit } from './stats.js';

const PEERS: readonly ContenderId[] = ['ivotoby', 'generated'];
/** Added p50 over the direct request at concurrency 1, ms. */
const ADDED_P50_MS = { stdio: 0.3, HTTP: 1 } as const;
/** The catalogue build of the largest generated document, and how straight its line must be. */
const BUILD_MS_AT_3000 = 300;
const LINEAR_R2 = 0.98;
/**
 * Tokens a model receives (each tool's name, description and input schema), as a share of the
 * smallest peer's list for the same capability, per configuration of the context table.
 */
const MODEL_TOKEN_SHARE: readonly { readonly configuration: string; readonly share: number; readonly label: string }[] =
  [
    { configuration: 'default', share: 0.5, label: 'default, every operation reachable, at most 0.5×' },
    { configuration: '`--toolsets all`', share: 1, label: '`--toolsets all` at most 1.0×' },
    { configuration: '`--toolsets dynamic`', share: 1.2, label: '`--toolsets dynamic` within 1.2×' },
  ];

type Verdict = { readonly met: boolean | undefined; readonly text: string };

export function performanceAims(results: BenchResults): string[] {
  const aims: Verdict[] = [];
  for (const row of results.coldStart) {
    const ours = medianOf(row.cells['school-mcp'], (cell) => cell.median);
    const best = bestPeer(PEERS.map((id) => medianOf(row.cells[id], (cell) => cell.median)));
    aims.push(atMost(`Cold start at or below the best peer, ${row.scenario}`, ours, best, 'ms'));
  }
  for (const transport of ['stdio', 'HTTP'] as const) {
    const row = results.latency.find((candidate) => candidate.transport === transport && candidate.concurrency === 1);
    const ours = medianOf(row?.cells['school-mcp'], (cell) => cell.p50.median);
    const direct = medianOf(row?.cells.direct, (cell) => cell.p50.median);
    const floor = medianOf(row?.cells['bare-sdk'], (cell) => cell.p50.median);
    const added = ours !== undefined && direct !== undefined ? ours - direct : undefined;
    const floorAdded = floor !== undefined && direct !== undefined ? floor - direct : undefined;
    // The bare SDK server's added p50 is what any server on the same SDK pays for the same request.
    const floorText = ` (the bare SDK server adds ${floorAdded === undefined ? '–' : `${floorAdded.toFixed(2)} ms`})`;
    aims.push(
      atMost(
        `Added p50 over ${transport} at concurrency 1 at most ${ADDED_P50_MS[transport]} ms${floorText}`,
        added,
        ADDED_P50_MS[transport],
        'ms',
      ),
    );
  }
  for (const row of results.latency.filter((candidate) => candidate.concurrency === 16)) {
    for (const [label, pick] of [
      ['p50', (cell: LatencyCell) => cell.p50.median],
      ['p99', (cell: LatencyCell) => cell.p99.median],
    ] as const) {
      const best = bestPeer(PEERS.map((id) => medianOf(row.cells[id], pick)));
      aims.push(
        atMost(
          `${label} over ${row.transport} at concurrency 16 at or below the best peer`,
          medianOf(row.cells['school-mcp'], pick),
          best,
          'ms',
        ),
      );
    }
  }
  const rss = (id: ContenderId) => medianOf(results.memory[id], (cell) => cell.afterAll);
  aims.push(
    atMost(
      'Resident set after the calls at or below the best peer',
      mib(rss('school-mcp')),
      bestPeer(PEERS.map((id) => mib(rss(id)))),
      'MiB',
    ),
  );
  aims.push(noLongGrowth(results.memory['school-mcp']));
  aims.push(...catalogueAims(results.scale));
  aims.push(...tokenAims(results.context));
  return [
    'Performance aims against the best peer and the direct call, from this run:',
    '',
    ...aims.map(
      ({ met, text }) => `- ${text}: ${met === undefined ? 'not measured' : met ? '**met**' : '**not met**'}`,
    ),
  ];
}

function catalogueAims(scale: readonly ScaleRow[]): Verdict[] {
  const generated = scale.flatMap((row) =>
    row.result.ok && row.document.startsWith('generated')
      ? [[row.result.value.operations, row.result.value.buildMs.median] as [number, number]]
      : [],
  );
  const points = generated.filter(([operations]) => operations >= 100);
  const largest = generated.find(([operations]) => operations === 3_000);
  const fit = points.length >= 2 ? linearFit(points) : undefined;
  return [
    atMost(`Catalogue build of 3,000 operations under ${BUILD_MS_AT_3000} ms`, largest?.[1], BUILD_MS_AT_3000, 'ms'),
    {
      met: fit === undefined ? undefined : fit.r2 >= LINEAR_R2,
      text: `Catalogue build linear from 100 to 3,000 operations (R² ${fit === undefined ? '–' : fit.r2.toFixed(3)}, aim ≥ ${LINEAR_R2})`,
    },
  ];
}

/**
 * "No growth" between the memory row's calls and the long run: the resident set moves by a few MiB
 * with V8's collections from one reading to the next, so growth within this share counts as none.
 */
const LONG_RUN_GROWTH_SHARE = 0.05;

function noLongGrowth(cell: Measured<MemoryCell> | undefined): Verdict {
  const value = cell?.ok ? cell.value : undefined;
  const long = value?.afterLong;
  const label = `No growth of the resident set from ${value === undefined ? 'the memory row' : value.calls.toLocaleString('en-US')} to ${long === undefined ? 'more' : long.calls.toLocaleString('en-US')} calls (within ${LONG_RUN_GROWTH_SHARE * 100} %)`;
  return atMost(
    label,
    mib(long?.bytes),
    value === undefined ? undefined : mib(value.afterAll * (1 + LONG_RUN_GROWTH_SHARE)),
    'MiB',
  );
}

function tokenAims(context: readonly ContextRow[]): Verdict[] {
  return MODEL_TOKEN_SHARE.map(({ configuration, share, label }) => {
    const row = context.find((candidate) => candidate.configuration === configuration);
    const modelTokens = (id: ContenderId) => (row?.cells[id]?.ok ? row.cells[id].value.modelTokens : undefined);
    const smallest = bestPeer(PEERS.map(modelTokens));
    return atMost(
      `Tokens given to the model, ${label} the smallest peer`,
      modelTokens('school-mcp'),
      smallest === undefined ? undefined : smallest * share,
      'tokens',
    );
  });
}

function atMost(label: string, ours: number | undefined, bound: number | undefined, unit: string): Verdict {
  const shown = (n: number | undefined) => (n === undefined ? '–' : `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ${unit}`);
  return {
    met: ours === undefined || bound === undefined ? undefined : ours <= bound,
    text: `${label} (${shown(ours)}; aim ${shown(bound)})`,
  };
}

function bestPeer(values: readonly (number | undefined)[]): number | undefined {
  const measured = values.filter((n): n is number => n !== undefined);
  return measured.length === 0 ? undefined : Math.min(...measured);
}

function medianOf<T>(cell: Measured<T> | undefined, pick: (value: T) => number): number | undefined {
  return cell?.ok ? pick(cell.value) : undefined;
}

function mib(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : bytes / 2 ** 20;
}
