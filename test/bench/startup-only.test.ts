/**
 * `npm run bench -- --only startup`: the cold-start rows measured alone, replacing only the "Cold
 * start" section of the report at --out. The rows themselves run end to end in the smoke test's
 * quick bench (`smoke.test.ts`); a second end-to-end run here would cost the suite tens of seconds
 * of CPU to prove the same measurements again.
 */
import { describe, expect, it } from 'vitest';
import { replaceReportSection } from '../../tools/bench/hostile-report.js';
import { parseBenchArgs } from '../../tools/bench/options.js';
import { COLD_START_HEADING, coldStartSection } from '../../tools/bench/report.js';

const EARLIER = [
  '# Benchmarks',
  '',
  '## Cold start',
  '',
  '| an old row |',
  '',
  '## Context cost',
  '',
  'kept as it was',
  '',
].join('\n');

describe('--only startup (pure)', () => {
  it('is an accepted section', () => {
    expect(parseBenchArgs(['--only', 'startup'], 'out.md')).toMatchObject({ only: 'startup' });
    expect(parseBenchArgs(['--only', 'nothing'], 'out.md')).toMatchObject({
      error: expect.stringContaining('startup'),
    });
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
