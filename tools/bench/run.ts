/**
 * `npm run bench [-- --quick] [-- --no-peers] [-- --only startup|hostile|agent|hosted|scale] [-- --out FILE]`: measures
 * school-mcp, a bare SDK server, the direct request and the two peers in one run, then the
 * scripted agent session, and writes BENCHMARKS.md; or one section alone, replaced in the report
 * already there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGENT_HEADING, agentSection } from './agent-session/agent-report.js';
import { measureAgentSession } from './agent-session/measure.js';
import { runBench } from './bench-run.js';
import { hostileSection, replaceHostileSection, replaceReportSection } from './hostile-report.js';
import { hostedSection, replaceHostedSection } from './hosted-report.js';
import { HOSTED_USERS, measureHosted, type HostedPlan } from './hosted-rows.js';
import { measureHostile } from './hostile-rows.js';
import { describeMachine } from './machine.js';
import { BENCH_USAGE, parseBenchArgs, type BenchOptions } from './options.js';
import { BENCH_PACKAGE_DIR, PROJECT_ROOT } from './paths.js';
import { COLD_START_HEADING, coldStartSection, renderReport } from './report.js';
import { replaceScaleOutSection, scaleOutSection } from './scale-out/scale-out-report.js';
import { measureScaleOut, SCALE_OUT_USERS, type ScaleOutPlan } from './scale-out/scale-out-rows.js';

/** The hand-written part of the report: why the figures are what they are, and what was changed. */
const FINDINGS = join(BENCH_PACKAGE_DIR, 'findings.md');

async function main(): Promise<number> {
  const parsed = parseBenchArgs(process.argv.slice(2), join(PROJECT_ROOT, 'BENCHMARKS.md'));
  if ('help' in parsed) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`bench: ${parsed.error}\n${BENCH_USAGE}`);
    return 2;
  }
  const started = Date.now();
  const progress = (line: string) =>
    process.stderr.write(`bench [${Math.round((Date.now() - started) / 1000)} s] ${line}\n`);
  if (parsed.only === 'startup') return onlyStartup(parsed, resolve(parsed.out), progress);
  if (parsed.only === 'hostile')
    return onlyHostile(parsed.counts.hostileRuns, parsed.quick, resolve(parsed.out), progress);
  if (parsed.only === 'agent') return onlyAgent(parsed.agentServer, resolve(parsed.out), progress, parsed.agentRecord);
  if (parsed.only === 'hosted') return onlyHosted(parsed.quick, resolve(parsed.out), progress);
  if (parsed.only === 'scale') return onlyScaleOut(parsed.quick, resolve(parsed.out), progress);
  const results = {
    ...(await runBench(parsed, progress)),
    agent: await measureAgentSession(parsed.agentServer, progress, parsed.agentRecord),
  };
  const findings = existsSync(FINDINGS) ? readFileSync(FINDINGS, 'utf8') : '';
  const out = resolve(parsed.out);
  const hosted = await measureHostedSection(parsed.quick, progress);
  const scaleOut = await measureScaleOutSection(parsed.quick, progress);
  await writeFile(out, replaceScaleOutSection(replaceHostedSection(renderReport(results, findings), hosted), scaleOut));
  process.stderr.write(`bench: wrote ${out}\n`);
  return 0;
}

async function onlyStartup(options: BenchOptions, out: string, progress: (line: string) => void): Promise<number> {
  const machine = describeMachine();
  const startedAt = new Date().toISOString();
  const results = await runBench(options, progress);
  const peers = options.peers ? 'with the peers' : 'without the peers (`--no-peers`)';
  const separately = `Measured on its own (\`npm run bench -- --only startup\`${options.quick ? ' --quick: one run each, not a measurement' : ''}), ${peers}, started ${startedAt}: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, load average at start ${machine.loadAverage.join(' / ')}.`;
  const report = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
  await writeFile(
    out,
    replaceReportSection(report, COLD_START_HEADING, coldStartSection(results.coldStart, separately)),
  );
  process.stderr.write(`bench: wrote the cold-start section of ${out}\n`);
  return 0;
}

async function onlyHostile(
  runs: number,
  quick: boolean,
  out: string,
  progress: (line: string) => void,
): Promise<number> {
  const scratch = await mkdtemp(join(tmpdir(), 'school-mcp-bench-'));
  try {
    const machine = describeMachine();
    const startedAt = new Date().toISOString();
    const rows = await measureHostile(runs, quick, scratch, progress);
    const separately = `Measured on its own (\`npm run bench -- --only hostile\`${quick ? ' --quick: one run each, not a measurement' : ''}), started ${startedAt}: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, load average at start ${machine.loadAverage.join(' / ')}.`;
    const report = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
    await writeFile(out, replaceHostileSection(report, hostileSection(rows, separately)));
    process.stderr.write(`bench: wrote the hostile-documents section of ${out}\n`);
    return 0;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function onlyAgent(
  schoolMcpMain: string | undefined,
  out: string,
  progress: (line: string) => void,
  recordFile: string | undefined,
): Promise<number> {
  const startedAt = new Date().toISOString();
  const figures = await measureAgentSession(
    schoolMcpMain === undefined ? undefined : resolve(schoolMcpMain),
    progress,
    recordFile,
  );
  const separately = `Measured on its own (\`npm run bench -- --only agent\`${schoolMcpMain === undefined ? '' : `, school-mcp from ${schoolMcpMain}`}), started ${startedAt}, Node ${process.version}.`;
  const report = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
  await writeFile(out, replaceReportSection(report, AGENT_HEADING, agentSection(figures, separately)));
  process.stderr.write(`bench: wrote the agent-session section of ${out}\n`);
  return figures.ok ? 0 : 1;
}

/** Quick: two connections, the fewest whose calls still run side by side; each sign-in was most of its CPU. */
function hostedPlan(quick: boolean): HostedPlan {
  return quick
    ? { rounds: 1, warmup: 1, callsPerUser: 2, users: 2 }
    : { rounds: 3, warmup: 10, callsPerUser: 100, users: HOSTED_USERS };
}

async function measureHostedSection(
  quick: boolean,
  progress: (line: string) => void,
  separately?: string,
): Promise<string[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'school-mcp-bench-'));
  try {
    const plan = hostedPlan(quick);
    return hostedSection(await measureHosted(plan, scratch, progress), separately, plan.users);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function onlyHosted(quick: boolean, out: string, progress: (line: string) => void): Promise<number> {
  const machine = describeMachine();
  const separately = `Measured on its own (\`npm run bench -- --only hosted\`${quick ? ' --quick: a few calls, not a measurement' : ''}), started ${new Date().toISOString()}: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, load average at start ${machine.loadAverage.join(' / ')}.`;
  const section = await measureHostedSection(quick, progress, separately);
  const report = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
  await writeFile(out, replaceHostedSection(report, section));
  process.stderr.write(`bench: wrote the hosted section of ${out}\n`);
  return 0;
}

/** Quick: two people, the fewest whose calls still run side by side; each sign-in was most of its CPU. */
function scaleOutPlan(quick: boolean): ScaleOutPlan {
  return quick
    ? { rounds: 1, warmup: 1, callsPerUser: 2, users: 2 }
    : { rounds: 3, warmup: 10, callsPerUser: 100, users: SCALE_OUT_USERS };
}

async function measureScaleOutSection(
  quick: boolean,
  progress: (line: string) => void,
  separately?: string,
): Promise<string[]> {
  const machine = describeMachine();
  const described = `${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, load average at start ${machine.loadAverage.join(' / ')}`;
  const plan = scaleOutPlan(quick);
  return scaleOutSection(await measureScaleOut(plan, progress), described, separately, plan.users);
}

async function onlyScaleOut(quick: boolean, out: string, progress: (line: string) => void): Promise<number> {
  const separately = `Measured on its own (\`npm run bench -- --only scale\`${quick ? ' --quick: a few calls, not a measurement' : ''}), started ${new Date().toISOString()}.`;
  const section = await measureScaleOutSection(quick, progress, separately);
  const report = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
  await writeFile(out, replaceScaleOutSection(report, section));
  process.stderr.write(`bench: wrote the scale-out section of ${out}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
