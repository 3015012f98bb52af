/**
 * `npm run bench [-- --quick] [-- --no-peers] [-- --out FILE]`: measures school-mcp, a bare SDK
 * server, the direct request and the two peers in one run, and writes BENCHMARKS.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runBench } from './bench-run.js';
import { BENCH_USAGE, parseBenchArgs } from './options.js';
import { BENCH_PACKAGE_DIR, PROJECT_ROOT } from './paths.js';
import { renderReport } from './report.js';

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
  const results = await runBench(parsed, (line) => process.stderr.write(`bench [${Math.round((Date.now() - started) / 1000)} s] ${line}\n`));
  const findings = existsSync(FINDINGS) ? readFileSync(FINDINGS, 'utf8') : '';
  const out = resolve(parsed.out);
  await writeFile(out, renderReport(results, findings));
  process.stderr.write(`bench: wrote ${out}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
