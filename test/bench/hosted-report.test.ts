import { describe, expect, it } from 'vitest';
import { hostedSection, replaceHostedSection } from '../../tools/bench/hosted-report.js';

const spread = (median: number, min = median, max = median, runs = 3) => ({ median, min, max, runs });

describe('the hosted section of the benchmarks (pure)', () => {
  it('renders calls per second and p50/p99 at 16 connections, with their spread', () => {
    const text = hostedSection({
      ok: true,
      value: { callsPerSecond: spread(412, 400, 430), p50: spread(31.2), p99: spread(88.4, 80, 95), calls: 4800 },
    }).join('\n');
    expect(text).toMatch(/^## Hosted mode$/m);
    expect(text).toContain(
      '| 16 concurrent connections | 412 [400–430] | 31.2 [31.2–31.2] | 88.4 [80.0–95.0] | 4800 |',
    );
  });

  it('names the connections a quick run signed in, not those of a measurement', () => {
    const text = hostedSection(
      { ok: true, value: { callsPerSecond: spread(50, 50, 50, 1), p50: spread(9), p99: spread(12), calls: 4 } },
      undefined,
      2,
    ).join('\n');
    expect(text).toContain(' 2 connections at once');
    expect(text).toContain('| 2 concurrent connections | 50 |');
  });

  it('says why there is no figure', () => {
    expect(hostedSection({ ok: false, reason: 'school-mcp --hosted did not start | twice' }).join('\n')).toContain(
      '– (school-mcp --hosted did not start / twice)',
    );
  });

  it('replaces only its own section, or adds it at the end', () => {
    const report = '# Benchmarks\n\n## Summary\n\nold\n\n## Hosted mode\n\nold hosted\n\n## Later\n\nkept\n';
    const replaced = replaceHostedSection(report, ['## Hosted mode', '', 'new hosted']);
    expect(replaced).toContain('new hosted');
    expect(replaced).not.toContain('old hosted');
    expect(replaced).toContain('## Later\n\nkept');
    expect(replaced).toContain('## Summary\n\nold');
    expect(replaceHostedSection('# Benchmarks\n', ['## Hosted mode'])).toBe('# Benchmarks\n\n## Hosted mode\n');
  });
});
