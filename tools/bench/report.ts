/** The results of a run as BENCHMARKS.md. Pure: the same results give the same text. */
import type {
  BenchResults,
  ColdStartCell,
  ColdStartRow,
  ContenderId,
  ContextCell,
  ContextRow,
  LatencyCell,
  LatencyRow,
  Measured,
  MemoryCell,
  ScaleRow,
} from './results.js';
import { agentSection } from './agent-session/agent-report.js';
import { hostileSection } from './hostile-report.js';
import { performanceAims } from './performance-aims.js';
import { linearFit, type Spread } from './stats.js';

const NAMES: Record<ContenderId, string> = {
  'school-mcp': 'school-mcp',
  'bare-sdk': 'bare SDK server',
  ivotoby: '@ivotoby/openapi-mcp-server',
  generated: 'openapi-mcp-generator',
  direct: 'direct undici request',
};

/** Aims of the issue, checked against every run. */
const AIMS = { addedLatencyP50Ms: 1, coldStartRatioToBare: 1.5, defaultTokensRatioToPeers: 0.5 } as const;

export function renderReport(results: BenchResults, findings: string): string {
  const lines: string[] = [];
  const push = (...more: string[]) => lines.push(...more);
  push('# Benchmarks', '');
  push(
    'Produced by `npm run bench` (code in `tools/bench/`); every figure below comes from one run, so the ratios compare servers measured side by side on the same machine, the same sandbox school and the same document. Figures are medians over repeated runs, with [min–max].',
    '',
  );
  if (results.quick)
    push(
      '> **Quick run (`--quick`)**: tiny counts, one run each. These numbers only show that every row can be produced; do not read them as measurements.',
      '',
    );
  const { machine } = results;
  push(
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.platform}; load average at start ${machine.loadAverage.join(' / ')} (the machine may be shared, so absolute times vary; ratios within one run are the figures to compare)`,
    `- Node ${machine.node}; run started ${results.startedAt}, took ${results.durationS} s`,
    `- Versions: ${Object.entries(results.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
    `- Tokens counted with ${results.tokenizer ?? '(no tokenizer installed: tokens left out)'}; bytes are the UTF-8 length of the \`tools/list\` result's JSON`,
    `- The read operation of the latency and memory rows: \`${results.readOperation}\` with the same token, as a \`tools/call\` and as a direct undici request`,
    '',
  );
  push(...summaryTable(results), '');
  push(...aimsSection(results), '', ...performanceAims(results), '');
  push(...worseThanPeers(results), '');
  if (findings.trim() !== '') push(findings.trim(), '');
  push(...coldStartSection(results.coldStart), '');
  push(
    '## Context cost',
    '',
    "The `tools/list` answer as the SDK's client hands it to a host (fields outside the MCP schema dropped), all of which some hosts put into the model's context. A tool definition in the model APIs that hosts call (Anthropic's and OpenAI's alike) has a name, a description and an input schema only; that part is also counted on its own, \"to the model\".",
    '',
  );
  push(...contextTable(results.context), '');
  push(
    '## Added latency',
    '',
    `p50 and p99 of one call, per round of ${latencyCalls(results)} calls; [min–max] across rounds. "Added" is the p50 minus the direct request's p50 in the same row. The bare SDK server is the floor: the same tools on the SDK alone, its read tool making the direct request and answering as school-mcp does; what it adds, any server on the SDK pays.`,
    '',
  );
  push(...latencyTable(results.latency), '');
  push('## Memory', '', 'Resident set of the server process (VmRSS), 16 calls at a time.', '');
  push(...memoryTable(results.memory), '');
  push(
    '## Scale',
    '',
    'Catalogue build (check the references, convert every operation, name, group) in a fresh process per run; parse and schema compile shown apart. Peak is the process\'s maximum resident set, including Node itself (the "before" column).',
    '',
  );
  push(...scaleTable(results.scale), '');
  push(...hostileSection(results.hostile), '');
  if (results.agent !== undefined) push(...agentSection(results.agent), '');
  if (results.peerProblems.length + results.notes.length > 0) {
    push('## Problems in this run', '');
    for (const line of [...results.peerProblems, ...results.notes]) push(`- ${line}`);
    push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function summaryTable(results: BenchResults): string[] {
  const rows: string[][] = [];
  const peers: ContenderId[] = ['ivotoby', 'generated'];
  for (const row of results.coldStart) {
    const ours = value(row.cells['school-mcp'], (cell) => cell.median);
    rows.push([
      `Cold start, ${row.scenario.split(',')[0]}${row.scenario.includes('not cached') ? ', not cached' : row.scenario.includes('cached') ? ', cached' : ''}`,
      ms(ours),
      ...peers.map((id) => ms(value(row.cells[id], (cell) => cell.median))),
      ...peers.map((id) =>
        ratio(
          ours,
          value(row.cells[id], (cell) => cell.median),
        ),
      ),
      `${ratio(
        ours,
        value(row.cells['bare-sdk'], (cell) => cell.median),
      )} of bare SDK`,
    ]);
  }
  for (const row of results.context) {
    const ours = value(row.cells['school-mcp'], (cell) => cell.tokens ?? cell.bytes);
    const unit = (cell: Measured<ContextCell> | undefined) => value(cell, (c) => c.tokens ?? c.bytes);
    rows.push([
      `tools/list ${results.tokenizer ? 'tokens' : 'bytes'}, ${row.configuration}`,
      count(ours),
      ...peers.map((id) => count(unit(row.cells[id]))),
      ...peers.map((id) => ratio(ours, unit(row.cells[id]))),
      '',
    ]);
  }
  // What a model API's tool definition holds, for every configuration: the token aims are judged on it.
  const modelPart = (cell: Measured<ContextCell> | undefined) => value(cell, (c) => c.modelTokens);
  for (const row of results.tokenizer ? results.context : []) {
    const ours = modelPart(row.cells['school-mcp']);
    rows.push([
      `tokens given to the model (name, description, input schema), ${row.configuration}`,
      count(ours),
      ...peers.map((id) => count(modelPart(row.cells[id]))),
      ...peers.map((id) => ratio(ours, modelPart(row.cells[id]))),
      '',
    ]);
  }
  for (const row of results.latency) {
    for (const [label, pick] of [
      ['p50', (cell: LatencyCell) => cell.p50.median],
      ['p99', (cell: LatencyCell) => cell.p99.median],
    ] as const) {
      const ours = value(row.cells['school-mcp'], pick);
      const direct = value(row.cells.direct, pick);
      rows.push([
        `Call latency ${label}, ${row.transport}, concurrency ${row.concurrency}`,
        ms(ours),
        ...peers.map((id) => ms(value(row.cells[id], pick))),
        ...peers.map((id) => ratio(ours, value(row.cells[id], pick))),
        `${ratio(ours, direct)} of direct (${ms(direct)}); ${addedOverDirect(ours, value(row.cells['bare-sdk'], pick), direct)}`,
      ]);
    }
  }
  const rss = (id: ContenderId) => value(results.memory[id], (cell) => cell.afterAll);
  rows.push([
    `RSS after ${memoryCalls(results)} calls`,
    mib(rss('school-mcp')),
    ...peers.map((id) => mib(rss(id))),
    ...peers.map((id) => ratio(rss('school-mcp'), rss(id))),
    `${ratio(rss('school-mcp'), rss('bare-sdk'))} of bare SDK (${mib(rss('bare-sdk'))})`,
  ]);
  return [
    '## Summary',
    '',
    `| | school-mcp | ${NAMES.ivotoby} | ${NAMES.generated} | ÷ ivotoby | ÷ generator | ÷ floor |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'Ratios are school-mcp ÷ the other (below 1 means school-mcp is faster or smaller). A dash is a figure that could not be measured; the sections below say why.',
  ];
}

/** school-mcp's and the floor's time over the direct request, side by side: the floor's share is any SDK server's. */
function addedOverDirect(ours: number | undefined, floor: number | undefined, direct: number | undefined): string {
  const added = (figure: number | undefined) =>
    figure === undefined || direct === undefined ? '–' : `${(figure - direct).toFixed(2)} ms`;
  return `added over direct: school-mcp ${added(ours)}, bare SDK server ${added(floor)}`;
}

function aimsSection(results: BenchResults): string[] {
  const lines = ['## Aims', ''];
  const stdio1 = results.latency.find((row) => row.transport === 'stdio' && row.concurrency === 1);
  const ours = value(stdio1?.cells['school-mcp'], (cell) => cell.p50.median);
  const direct = value(stdio1?.cells.direct, (cell) => cell.p50.median);
  const added = ours !== undefined && direct !== undefined ? ours - direct : undefined;
  lines.push(
    `- Added latency under ${AIMS.addedLatencyP50Ms} ms at p50 over stdio (concurrency 1): ${judged(added, (figure) => figure < AIMS.addedLatencyP50Ms)} (added ${ms(added)})`,
  );
  for (const row of results.coldStart) {
    const ratioToBare = divide(
      value(row.cells['school-mcp'], (cell) => cell.median),
      value(row.cells['bare-sdk'], (cell) => cell.median),
    );
    lines.push(
      `- Cold start within ${AIMS.coldStartRatioToBare}× the bare SDK server, ${row.scenario}: ${judged(ratioToBare, (ratio) => ratio <= AIMS.coldStartRatioToBare)} (${fixed(ratioToBare)}×)`,
    );
  }
  const defaults = results.context.find((row) => row.configuration === 'default');
  for (const id of ['ivotoby', 'generated'] as const) {
    const share = divide(
      value(defaults?.cells['school-mcp'], (cell) => cell.tokens ?? cell.bytes),
      value(defaults?.cells[id], (cell) => cell.tokens ?? cell.bytes),
    );
    lines.push(
      `- Default \`tools/list\` at most ${AIMS.defaultTokensRatioToPeers}× the tokens of ${NAMES[id]} (same capability: every operation reachable): ${judged(share, (ratio) => ratio <= AIMS.defaultTokensRatioToPeers)} (${fixed(share)}×)`,
    );
  }
  return lines;
}

function worseThanPeers(results: BenchResults): string[] {
  const worse: string[] = [];
  const check = (
    what: string,
    ours: number | undefined,
    id: ContenderId,
    theirs: number | undefined,
    format: (n: number | undefined) => string,
  ) => {
    if (ours !== undefined && theirs !== undefined && ours > theirs)
      worse.push(`- ${what}: school-mcp ${format(ours)} vs ${NAMES[id]} ${format(theirs)} (${fixed(ours / theirs)}×)`);
  };
  for (const id of ['ivotoby', 'generated'] as const) {
    for (const row of results.coldStart)
      check(
        `Cold start, ${row.scenario}`,
        value(row.cells['school-mcp'], (c) => c.median),
        id,
        value(row.cells[id], (c) => c.median),
        ms,
      );
    for (const row of results.context)
      check(
        `tools/list, ${row.configuration}`,
        value(row.cells['school-mcp'], (c) => c.tokens ?? c.bytes),
        id,
        value(row.cells[id], (c) => c.tokens ?? c.bytes),
        count,
      );
    for (const row of results.latency)
      check(
        `p50, ${row.transport}, concurrency ${row.concurrency}`,
        value(row.cells['school-mcp'], (c) => c.p50.median),
        id,
        value(row.cells[id], (c) => c.p50.median),
        ms,
      );
    check(
      'RSS after the calls',
      value(results.memory['school-mcp'], (c) => c.afterAll),
      id,
      value(results.memory[id], (c) => c.afterAll),
      mib,
    );
  }
  return [
    '## Where school-mcp is behind a peer in this run',
    '',
    ...(worse.length > 0 ? worse : ['- Nowhere in this run.']),
  ];
}

export const COLD_START_HEADING = '## Cold start';

/** The cold-start section; `separately` says how it was measured when not in a full run (`--only startup`). */
export function coldStartSection(rows: readonly ColdStartRow[], separately?: string): string[] {
  return [
    COLD_START_HEADING,
    '',
    'Spawn of the server process to the answer of its first `tools/list` over stdio (initialize included), after sign-in is done. The bare SDK server lists exactly the tools school-mcp lists in the same scenario (`McpServer` + `fromJsonSchema`, no sign-in, no document, no catalogue): it is the floor. The peers list every operation of the document.',
    '',
    ...(separately === undefined ? [] : [separately, '']),
    ...coldStartTable(rows),
  ];
}

function coldStartTable(rows: readonly ColdStartRow[]): string[] {
  const ids: ContenderId[] = ['school-mcp', 'bare-sdk', 'ivotoby', 'generated'];
  return [
    `| Scenario | ${ids.map((id) => NAMES[id]).join(' | ')} |`,
    `|---|${ids.map(() => '---:').join('|')}|`,
    ...rows.map(
      (row) => `| ${row.scenario} | ${ids.map((id) => describe(row.cells[id], coldStartText)).join(' | ')} |`,
    ),
  ];
}

function coldStartText(cell: ColdStartCell): string {
  const timed = `${spread(cell, ms)}, ${cell.tools} tools`;
  return cell.listRejected === undefined
    ? timed
    : `${timed}, **but the MCP client rejects the list** (${cell.listRejected.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 160)})`;
}

function contextTable(rows: readonly ContextRow[]): string[] {
  const ids: ContenderId[] = ['school-mcp', 'ivotoby', 'generated'];
  const show = (cell: ContextCell) =>
    `${cell.tools} tools, ${kb(cell.bytes)}, ${cell.tokens === undefined ? '– tokens' : `${count(cell.tokens)} tokens`}${cell.modelTokens === undefined ? '' : ` (${count(cell.modelTokens)} to the model)`}${cell.as === 'default' || cell.as.startsWith('--') ? '' : ` (${cell.as})`}`;
  return [
    `| Configuration | ${ids.map((id) => NAMES[id]).join(' | ')} |`,
    `|---|${ids.map(() => '---:').join('|')}|`,
    ...rows.map((row) => `| ${row.configuration} | ${ids.map((id) => describe(row.cells[id], show)).join(' | ')} |`),
  ];
}

function latencyTable(rows: readonly LatencyRow[]): string[] {
  const ids: ContenderId[] = ['direct', 'school-mcp', 'bare-sdk', 'ivotoby', 'generated'];
  const lines = [
    '| Transport, concurrency | Server | p50 ms | p99 ms | added p50 ms | ÷ direct p50 |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const direct = value(row.cells.direct, (cell) => cell.p50.median);
    for (const id of ids) {
      const cell = row.cells[id];
      if (cell === undefined) continue;
      if (!cell.ok) {
        lines.push(`| ${row.transport}, ${row.concurrency} | ${NAMES[id]} | ${cell.reason} | | | |`);
        continue;
      }
      const p50 = cell.value.p50.median;
      lines.push(
        `| ${row.transport}, ${row.concurrency} | ${NAMES[id]} | ${spread(cell.value.p50, ms)} | ${spread(cell.value.p99, ms)} | ${id === 'direct' ? '' : ms(direct === undefined ? undefined : p50 - direct)} | ${id === 'direct' ? '' : fixed(divide(p50, direct))} |`,
      );
    }
  }
  return lines;
}

function memoryTable(memory: BenchResults['memory']): string[] {
  const lines = [
    '| Server | after start | after half the calls | after all calls | growth over the second half | after the long run | growth over the long run |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const long = (cell: MemoryCell) =>
    cell.afterLong === undefined
      ? ['–', '–']
      : [
          `${mib(cell.afterLong.bytes)} (${count(cell.afterLong.calls)} calls)`,
          `${signed((cell.afterLong.bytes - cell.afterAll) / 2 ** 20)} MiB`,
        ];
  for (const id of ['school-mcp', 'bare-sdk', 'ivotoby', 'generated'] as const) {
    lines.push(
      `| ${NAMES[id]} | ${describe(memory[id], (cell: MemoryCell) => [mib(cell.afterStart), `${mib(cell.afterHalf)} (${count(cell.calls / 2)} calls)`, `${mib(cell.afterAll)} (${count(cell.calls)} calls)`, `${signed((cell.afterAll - cell.afterHalf) / 2 ** 20)} MiB`, ...long(cell)].join(' | '))} |`,
    );
  }
  return lines;
}

function scaleTable(rows: readonly ScaleRow[]): string[] {
  const lines = [
    '| Document | operations | parse ms | catalogue build ms | build µs per operation | schema compile ms | peak RSS (before) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const points: [number, number][] = [];
  for (const row of rows) {
    if (!row.result.ok) {
      lines.push(`| ${row.document} | ${row.result.reason} | | | | | |`);
      continue;
    }
    const result = row.result.value;
    if (row.document.startsWith('generated')) points.push([result.operations, result.buildMs.median]);
    lines.push(
      `| ${row.document} | ${result.operations} | ${spread(result.parseMs, ms)} | ${spread(result.buildMs, ms)} | ${fixed((result.buildMs.median * 1000) / Math.max(1, result.operations), 0)} | ${spread(result.compileMs, ms)} | ${mib(result.peakBytes.median)} (${mib(result.baselinePeakBytes)}) |`,
    );
  }
  if (points.length >= 2) {
    const fit = linearFit(points);
    lines.push(
      '',
      `Generated documents: build time ≈ ${fixed(fit.intercept, 1)} ms + ${fixed(fit.slope * 1000, 0)} µs × operations (least squares, R² = ${fixed(fit.r2, 3)}): ${fit.r2 >= 0.98 ? 'linear' : 'not a clean line in this run'}.`,
    );
  }
  return lines;
}

function value<T>(cell: Measured<T> | undefined, pick: (value: T) => number | undefined): number | undefined {
  return cell?.ok ? pick(cell.value) : undefined;
}

function describe<T>(cell: Measured<T> | undefined, show: (value: T) => string): string {
  if (cell === undefined) return '';
  return cell.ok ? show(cell.value) : `– (${cell.reason})`;
}

function spread(value: Spread, format: (n: number) => string): string {
  return value.runs > 1 ? `${format(value.median)} [${format(value.min)}–${format(value.max)}]` : format(value.median);
}

function divide(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

function ratio(a: number | undefined, b: number | undefined): string {
  const result = divide(a, b);
  return result === undefined ? '–' : `${fixed(result)}×`;
}

/** An aim's verdict on a figure this run measured, or "not measured" (a quick run, a peer left out). */
function judged(figure: number | undefined, meets: (figure: number) => boolean): string {
  return figure === undefined ? 'not measured' : verdict(meets(figure));
}

function verdict(met: boolean): string {
  return met ? '**met**' : '**not met**';
}

function fixed(n: number | undefined, digits = 2): string {
  return n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits);
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
}

function ms(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return '–';
  return n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString();
}

function count(n: number | undefined): string {
  return n === undefined ? '–' : Math.round(n).toLocaleString('en-US');
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function mib(bytes: number | undefined): string {
  return bytes === undefined ? '–' : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

function latencyCalls(results: BenchResults): string {
  const cell = results.latency.flatMap((row) => Object.values(row.cells)).find((c) => c?.ok);
  return cell?.ok ? count(cell.value.calls / Math.max(1, cell.value.p50.runs)) : '–';
}

function memoryCalls(results: BenchResults): string {
  const cell = Object.values(results.memory).find((c) => c?.ok);
  return cell?.ok ? count(cell.value.calls) : '–';
}
