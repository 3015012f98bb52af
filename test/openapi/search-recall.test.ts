/**
 * Recall at 3 of search in the administrator's own words, on the sandbox school: the phrasings
 * of test/fixtures/search/phrasings.json, written before the search was tuned, in a tuning half
 * and a held-back half that the search was never tuned on. BENCHMARKS.md reports the same figures.
 */
import { describe, expect, it } from 'vitest';
import {
  PHRASINGS_FILE,
  readPhrasings,
  recallAtThree,
  sandboxCatalogue,
} from '../../tools/bench/agent-session/search-recall.js';

describe("search recall at 3 in the administrator's words", () => {
  it('has at least 150 phrasings in two fixed halves, several for every sandbox operation', async () => {
    const phrasings = await readPhrasings(PHRASINGS_FILE);
    const catalogue = await sandboxCatalogue();
    expect(phrasings.length).toBeGreaterThanOrEqual(150);
    expect(new Set(phrasings.map((phrasing) => phrasing.half))).toEqual(new Set(['tuning', 'held-back']));
    for (const phrasing of phrasings)
      for (const name of phrasing.expect) expect(catalogue.byName.has(name), name).toBe(true);
    for (const operation of catalogue.operations) {
      expect(
        phrasings.filter((phrasing) => phrasing.expect[0] === operation.toolName).length,
        operation.toolName,
      ).toBeGreaterThanOrEqual(2);
    }
  });

  it.each([{ half: 'held-back' as const }, { half: 'tuning' as const }])(
    'finds the answer in the first three for at least 95 percent of the $half half',
    async ({ half }) => {
      const figures = recallAtThree(await sandboxCatalogue(), await readPhrasings(PHRASINGS_FILE), half);
      expect(figures.found / figures.total, figures.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    },
  );
});
