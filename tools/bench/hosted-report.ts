/**
 * The "Hosted mode" section of BENCHMARKS.md, and its replacement in a report written earlier
 * (`npm run bench -- --only hosted` measures this section alone). Pure.
 */
import { HOSTED_USERS, type HostedCell } from './hosted-rows.js';
import type { Measured } from './results.js';
import type { Spread } from './stats.js';

const HOSTED_HEADING = '## Hosted mode';

export function hostedSection(cell: Measured<HostedCell>, separately?: string, users = HOSTED_USERS): string[] {
  const lines = [
    HOSTED_HEADING,
    '',
    `\`school-mcp --hosted\` in its own process, the sandbox school in another, ${users} connections at once: each its own MCP client (the SDK's, over Streamable HTTP) with its own OAuth sign-in through school-mcp's consent and the school's, and its own token; the sandbox has three staff members, so the connections take turns among them. Each connection calls \`list_courses\` (per_page 10) back to back; a call goes through the bearer check, that person's runtime and school grant (read from the encrypted store), and the school's API.`,
    '',
    ...(separately === undefined ? [] : [separately, '']),
    '| | calls per second | p50 ms | p99 ms | calls |',
    '|---|---:|---:|---:|---:|',
  ];
  if (!cell.ok) {
    lines.push(`| ${users} concurrent connections | – (${cell.reason.replace(/\|/g, '/').slice(0, 200)}) | | | |`);
    return lines;
  }
  const { value } = cell;
  lines.push(
    `| ${users} concurrent connections | ${spread(value.callsPerSecond, (n) => Math.round(n).toString())} | ${spread(value.p50, ms)} | ${spread(value.p99, ms)} | ${value.calls} |`,
  );
  return lines;
}

/** `report` with its hosted section replaced by `section`, or `section` added at the end. */
export function replaceHostedSection(report: string, section: readonly string[]): string {
  const text = section.join('\n');
  const start = report.indexOf(`\n${HOSTED_HEADING}\n`);
  if (start < 0) return `${report.trimEnd()}\n\n${text}\n`;
  const next = report.indexOf('\n## ', start + 1);
  const before = report.slice(0, start).trimEnd();
  const after = next < 0 ? '' : report.slice(next + 1).trimEnd();
  return `${before}\n\n${text}\n${after === '' ? '' : `\n${after}\n`}`;
}

function ms(value: number): string {
  return value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function spread(value: Spread, format: (n: number) => string): string {
  return value.runs > 1 ? `${format(value.median)} [${format(value.min)}–${format(value.max)}]` : format(value.median);
}
