/**
 * The scale-out rows of the bench: their section (pure), and `--only scale --quick` end to end on
 * real redis-server and haproxy, which writes all three rows and the scaling factor. Timings are
 * not asserted.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceScaleOutSection, scaleOutSection, scalingFactor } from '../../tools/bench/scale-out/scale-out-report.js';
import { SCALE_OUT_USERS, type ScaleOutCell } from '../../tools/bench/scale-out/scale-out-rows.js';
import { describeWithHaproxy } from '../helpers/haproxy.js';
import { describeWithRedis } from '../helpers/redis-server.js';

const RUN_JS = resolve(import.meta.dirname, '../../dist/tools/bench/run.js');
const spread = (median: number, min = median, max = median, runs = 3) => ({ median, min, max, runs });
const cell = (rate: number): { ok: true; value: ScaleOutCell } => ({ ok: true, value: { callsPerSecond: spread(rate, rate - 10, rate + 10), p50: spread(30.5), p99: spread(80.25), calls: 4800 } });

describe('the scale-out section of the benchmarks (pure)', () => {
  it('renders a row per deployment and the factor of three instances over one on Redis', () => {
    const cells = { directory: cell(380), redis: cell(300), 'redis-3': cell(450) };
    expect(scalingFactor(cells)).toBeCloseTo(1.5);
    const text = scaleOutSection(cells, 'a test machine, 2 cores').join('\n');
    expect(text).toMatch(/^## Hosted scale-out$/m);
    expect(text).toContain('| 1 instance, directory store | 380 [370–390] | 30.5 [30.5–30.5] | 80.3 [80.3–80.3] | 4800 |');
    expect(text).toContain('| 1 instance, Redis | 300 [290–310] |');
    expect(text).toContain('| 3 instances, Redis, haproxy round-robin | 450 [440–460] |');
    expect(text).toContain('**1.50×**');
    expect(text).toContain('Machine: a test machine, 2 cores.');
    expect(text).toContain(`${SCALE_OUT_USERS} staff members at once`);
    expect(scaleOutSection(cells, 'm', undefined, 2).join('\n')).toContain(' 2 staff members at once');
  });

  it('says why a deployment has no figure, and gives no factor without both Redis rows', () => {
    const cells = { directory: cell(380), redis: cell(300), 'redis-3': { ok: false as const, reason: 'no haproxy | here' } };
    expect(scalingFactor(cells)).toBeUndefined();
    const text = scaleOutSection(cells, 'm').join('\n');
    expect(text).toContain('| 3 instances, Redis, haproxy round-robin | – (no haproxy / here) | | | |');
    expect(text).toContain('– (a deployment was not measured)');
  });

  it('replaces only its own section, and leaves the catalogue "Scale" section alone', () => {
    const report = '# Benchmarks\n\n## Scale\n\nrows\n\n## Hosted scale-out\n\nold\n\n## Later\n\nkept\n';
    const replaced = replaceScaleOutSection(report, ['## Hosted scale-out', '', 'new']);
    expect(replaced).toBe('# Benchmarks\n\n## Scale\n\nrows\n\n## Hosted scale-out\n\nnew\n\n## Later\n\nkept\n');
  });
});

describeWithHaproxy('npm run bench -- --only scale --quick', () => {
  describeWithRedis('on real redis-server and haproxy', () => {
    let directory: string;
    let report: string;
    let stderr = '';

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'school-mcp-bench-scale-out-'));
      const out = join(directory, 'BENCHMARKS.md');
      await writeFile(out, '# Benchmarks\n\n## Scale\n\nkept\n');
      const child = spawn(process.execPath, [RUN_JS, '--only', 'scale', '--quick', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code, stderr).toBe(0);
      report = await readFile(out, 'utf8');
    }, 150_000);

    afterAll(async () => {
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    });

    it('measures all three deployments in one run and writes the scaling factor, keeping the rest of the report', () => {
      expect(report).toContain('## Scale\n\nkept');
      for (const label of ['1 instance, directory store', '1 instance, Redis', '3 instances, Redis, haproxy round-robin']) {
        expect(report, stderr).toMatch(new RegExp(`\\| ${label} \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\| \\d+ \\|`));
      }
      expect(report).toMatch(/Scaling factor \(3 instances over 1, both on Redis, median calls per second\): \*\*\d+\.\d\d×\*\*/);
      expect(report).toContain('--only scale` --quick');
    });
  });
});
