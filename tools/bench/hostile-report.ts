/**
 * The "Hostile documents" section of BENCHMARKS.md, and its replacement in a report written by an
 * earlier full run (`npm run bench -- --only hostile` measures this section alone). Pure.
 */
import type { HostileRow } from './results.js';
import type { Spread } from './stats.js';

const HOSTILE_HEADING = '## Hostile documents';

/** What a hostile document may cost at most: list time, default list size, peak memory. */
const HOSTILE_AIMS = { listMs: 10_000, defaultListBytes: 8 * 1024 * 1024, peakBytes: 400 * 1024 * 1024 } as const;

/** `separately`: a line saying when and where, for a section measured apart from the rest of the report. */
export function hostileSection(rows: readonly HostileRow[], separately?: string): string[] {
  const lines = [
    HOSTILE_HEADING,
    '',
    'school-mcp on generated attack documents (`tools/bench/hostile-documents.ts`): every operation refers to a schema whose properties refer to the next level, five levels deep, each leaf carrying a long example. Spawn of the server to the answer of its first `tools/list` over stdio, the size of that answer, and the peak resident set of the server process (VmHWM, read after the answer). Before the schema budgets (SECURITY.md API-11) the 500-operation document gave a 35 MB list by default and never answered with `--toolsets all`; the 5,000-operation one gave no answer in 60 s at 1.7 GB.',
    '',
    ...(separately === undefined ? [] : [separately, '']),
    `Aims: an answer within ${HOSTILE_AIMS.listMs / 1000} s, peak under ${HOSTILE_AIMS.peakBytes / 2 ** 20} MiB, and under ${HOSTILE_AIMS.defaultListBytes / 2 ** 20} MiB of list in the default configuration. Every tool of 5,000 listed at once is beyond what the issue asks (and what any host uses); that row shows where the cost goes.`,
    '',
    '| Document | document size | configuration | tools | `tools/list` size | spawn → `tools/list` ms | peak RSS | aims |',
    '|---|---:|---|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const size = `${(row.documentBytes / 1024).toFixed(0)} KiB`;
    const aimed = !(row.operations > 500 && row.configuration === '--toolsets all');
    if (!row.result.ok) {
      lines.push(
        `| ${row.document} | ${size} | \`${row.configuration}\` | – (${row.result.reason.replace(/\|/g, '/').replace(/\n/g, ' ').slice(0, 200)}) | | | | ${aimed ? '**not met**' : 'no aim'} |`,
      );
      continue;
    }
    const result = row.result.value;
    const met =
      result.listMs.median <= HOSTILE_AIMS.listMs &&
      result.peakBytes.median < HOSTILE_AIMS.peakBytes &&
      (row.configuration !== 'default' || result.listBytes < HOSTILE_AIMS.defaultListBytes);
    lines.push(
      `| ${row.document} | ${size} | \`${row.configuration}\` | ${result.tools} | ${listSize(result.listBytes)} | ${spread(result.listMs, (n) => Math.round(n).toString())} | ${spread(result.peakBytes, mib)} | ${aimed ? (met ? '**met**' : '**not met**') : 'no aim'} |`,
    );
  }
  return lines;
}

/**
 * `report` with its hostile-documents section replaced by `section`, or `section` added at the
 * end when the report has none.
 */
export function replaceHostileSection(report: string, section: readonly string[]): string {
  return replaceReportSection(report, HOSTILE_HEADING, section);
}

/** `report` with the section under `heading` replaced by `section`, or `section` added at the end. */
export function replaceReportSection(report: string, heading: string, section: readonly string[]): string {
  const text = section.join('\n');
  const start = report.indexOf(`\n${heading}\n`);
  if (start < 0) return `${report.trimEnd()}\n\n${text}\n`;
  const next = report.indexOf('\n## ', start + 1);
  const before = report.slice(0, start).trimEnd();
  const after = next < 0 ? '' : report.slice(next + 1).trimEnd();
  return `${before}\n\n${text}\n${after === '' ? '' : `\n${after}\n`}`;
}

function listSize(bytes: number): string {
  return bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(1)} KiB` : mib(bytes);
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

function spread(value: Spread, format: (n: number) => string): string {
  return value.runs > 1 ? `${format(value.median)} [${format(value.min)}–${format(value.max)}]` : format(value.median);
}
