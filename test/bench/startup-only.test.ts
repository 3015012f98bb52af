/**
 * `npm run bench -- --only startup`: the cold-start rows measured alone, school-mcp beside the
 * bare SDK server (and the peers when installed), replacing only the "Cold start" section of the
 * report at --out. Timings are not asserted.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replaceReportSection } from '../../tools/bench/hostile-report.js';
import { parseBenchArgs } from '../../tools/bench/options.js';
import { COLD_START_HEADING, coldStartSection } from '../../tools/bench/report.js';

const RUN_JS = resolve(import.meta.dirname, '../../dist/tools/bench/run.js');
const EARLIER = ['# Benchmarks', '', '## Cold start', '', '| an old row |', '', '## Context cost', '', 'kept as it was', ''].join('\n');

describe('--only startup (pure)', () => {
  it('is an accepted section', () => {
    expect(parseBenchArgs(['--only', 'startup'], 'out.md')).toMatchObject({ only: 'startup' });
    expect(parseBenchArgs(['--only', 'nothing'], 'out.md')).toMatchObject({ error: expect.stringContaining('startup') });
  });

  it('replaces the cold-start section and leaves the others alone', () => {
    const section = coldStartSection([{ scenario: 'a scenario', cells: {} }], 'Measured on its own.');
    const report = replaceReportSection(EARLIER, COLD_START_HEADING, section);
    expect(report).toContain('| a scenario |');
    expect(report).toContain('Measured on its own.');
    expect(report).not.toContain('an old row');
    expect(report).toContain('## Context cost\n\nkept as it was');
  });
});

describe('npm run bench -- --only startup --quick --no-peers', () => {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
  });

  it('measures every cold-start row for school-mcp and the bare SDK server, and writes that section only', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'school-mcp-bench-startup-'));
    directories.push(directory);
    const out = join(directory, 'BENCHMARKS.md');
    await writeFile(out, EARLIER);
    const child = spawn(process.execPath, [RUN_JS, '--only', 'startup', '--quick', '--no-peers', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    const report = await readFile(out, 'utf8');
    expect(report).toContain('--only startup` --quick');
    expect(report).toContain('## Context cost\n\nkept as it was');
    for (const scenario of ['sandbox document, not cached', 'sandbox document, cached', 'GitHub REST document, 623 operations', 'Kubernetes document, 1,123 operations']) {
      const row = report.split('\n').find((line) => line.startsWith(`| ${scenario}`));
      expect(row, scenario).toBeDefined();
      const cells = row!.split('|').map((cell) => cell.trim());
      expect(cells[2], `school-mcp, ${scenario}`).toMatch(/^\d[\d.]*, \d+ tools$/);
      expect(cells[3], `bare SDK, ${scenario}`).toMatch(/^\d[\d.]*, \d+ tools$/);
    }
  }, 300_000);
});
