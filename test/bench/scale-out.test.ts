/**
 * The scale-out section of the bench, pure: its rows, the scaling factor, and `--only scale`
 * replacing only that section. The rows themselves are measured end to end, on real redis-server
 * and haproxy, by the smoke test's quick run (`smoke.test.ts`), which runs the same code.
 */
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../tools/bench/options.js';
import {
  replaceScaleOutSection,
  scaleOutSection,
  scalingFactor,
} from '../../tools/bench/scale-out/scale-out-report.js';
import { SCALE_OUT_USERS, type ScaleOutCell } from '../../tools/bench/scale-out/scale-out-rows.js';

const spread = (median: number, min = median, max = median, runs = 3) => ({ median, min, max, runs });
const cell = (rate: number): { ok: true; value: ScaleOutCell } => ({
  ok: true,
  value: { callsPerSecond: spread(rate, rate - 10, rate + 10), p50: spread(30.5), p99: spread(80.25), calls: 4800 },
});

describe('the scale-out section of the benchmarks (pure)', () => {
  it('renders a row per deployment and the factor of three instances over one on Redis', () => {
    const cells = { directory: cell(380), redis: cell(300), 'redis-3': cell(450) };
    expect(scalingFactor(cells)).toBeCloseTo(1.5);
    const text = scaleOutSection(cells, 'a test machine, 2 cores').join('\n');
    expect(text).toMatch(/^## Hosted scale-out$/m);
    expect(text).toContain(
      '| 1 instance, directory store | 380 [370–390] | 30.5 [30.5–30.5] | 80.3 [80.3–80.3] | 4800 |',
    );
    expect(text).toContain('| 1 instance, Redis | 300 [290–310] |');
    expect(text).toContain('| 3 instances, Redis, haproxy round-robin | 450 [440–460] |');
    expect(text).toContain('**1.50×**');
    expect(text).toContain('Machine: a test machine, 2 cores.');
    expect(text).toContain(`${SCALE_OUT_USERS} staff members at once`);
    expect(scaleOutSection(cells, 'm', undefined, 2).join('\n')).toContain(' 2 staff members at once');
  });

  it('says why a deployment has no figure, and gives no factor without both Redis rows', () => {
    const cells = {
      directory: cell(380),
      redis: cell(300),
      'redis-3': { ok: false as const, reason: 'no haproxy | here' },
    };
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

  it('is what --only scale selects', () => {
    expect(parseBenchArgs(['--only', 'scale', '--quick'], 'BENCHMARKS.md')).toMatchObject({
      only: 'scale',
      quick: true,
    });
  });
});
