/**
 * The "Hosted scale-out" section of BENCHMARKS.md: the three deployments' throughput and latency, and
 * the scaling factor of three instances over one on the same store. `npm run bench -- --only
 * scale` measures this section alone and replaces it in the report. Pure.
 */
import { replaceReportSection } from '../hostile-report.js';
import type { Measured } from '../results.js';
import type { Spread } from '../stats.js';
import {
  SCALE_OUT_DEPLOYMENTS,
  SCALE_OUT_USERS,
  type ScaleOutCell,
  type ScaleOutDeployment,
} from './scale-out-rows.js';

const SCALE_OUT_HEADING = '## Hosted scale-out';

/** Pure: three instances' calls per second over one instance's, both on Redis; `undefined` without both. */
export function scalingFactor(cells: Readonly<Record<ScaleOutDeployment, Measured<ScaleOutCell>>>): number | undefined {
  const one = cells.redis;
  const three = cells['redis-3'];
  if (!one.ok || !three.ok || !(one.value.callsPerSecond.median > 0)) return undefined;
  return three.value.callsPerSecond.median / one.value.callsPerSecond.median;
}

export function scaleOutSection(
  cells: Readonly<Record<ScaleOutDeployment, Measured<ScaleOutCell>>>,
  machine: string,
  separately?: string,
  users = SCALE_OUT_USERS,
): string[] {
  const lines = [
    SCALE_OUT_HEADING,
    '',
    `\`school-mcp --hosted\` as child processes against the sandbox school (in the bench's process), ${users} staff members at once, each signed in through the deployment's public URL with their own MCP client (the SDK's, 2026-07-28, stateless per request) and calling \`list_courses\` (per_page 10) back to back. The three deployments run one after the other in one run, each started fresh: one instance with its directory store; one instance on a real redis-server (append-only file, \`appendfsync always\`); three instances on that Redis behind a real haproxy (round-robin, no stickiness, \`/readyz\` checks). Every part shares the same cores, so the factor says what a second and third process add on this machine, not what three machines would.`,
    '',
    ...(separately === undefined ? [] : [separately, '']),
    `Machine: ${machine}.`,
    '',
    '| deployment | calls per second | p50 ms | p99 ms | calls |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const deployment of SCALE_OUT_DEPLOYMENTS) {
    const cell = cells[deployment.id];
    if (!cell.ok)
      lines.push(
        `| ${deployment.label} | – (${cell.reason.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 200)}) | | | |`,
      );
    else
      lines.push(
        `| ${deployment.label} | ${spread(cell.value.callsPerSecond, (n) => Math.round(n).toString())} | ${spread(cell.value.p50, ms)} | ${spread(cell.value.p99, ms)} | ${cell.value.calls} |`,
      );
  }
  const factor = scalingFactor(cells);
  lines.push(
    '',
    factor === undefined
      ? 'Scaling factor (3 instances over 1, both on Redis): – (a deployment was not measured)'
      : `Scaling factor (3 instances over 1, both on Redis, median calls per second): **${factor.toFixed(2)}×**`,
  );
  if (factor !== undefined) {
    lines.push(
      '',
      "How to read it: here the three instances add no core. They add haproxy's hop, and three processes compete for the same cores with the bench's clients, the sandbox school and Redis, so on a small machine a factor below 1 is expected. Scaling out on one machine buys availability (an instance may die or restart while the others serve: `test/e2e/scale-out.test.ts`); throughput needs instances on cores of their own, which this run does not measure.",
    );
  }
  return lines;
}

export function replaceScaleOutSection(report: string, section: readonly string[]): string {
  return replaceReportSection(report, SCALE_OUT_HEADING, section);
}

function ms(value: number): string {
  return value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function spread(value: Spread, format: (n: number) => string): string {
  return value.runs > 1 ? `${format(value.median)} [${format(value.min)}–${format(value.max)}]` : format(value.median);
}
