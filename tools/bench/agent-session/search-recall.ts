/**
 * Recall of `search_operations` in the administrator's own words: for each phrasing of
 * test/fixtures/search/phrasings.json, whether one of the operations that answer it is among the
 * first three results, on the sandbox school's catalogue. The phrasings were written before the
 * search was tuned and come in two fixed halves: the search was tuned on the first only, so the
 * held-back half says how it does on words nobody fitted it to.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildCatalogue, loadDocument, searchOperations, type ToolCatalogue } from '../../../src/openapi/index.js';
import { createSandbox } from '@school-mcp/sandbox';
import { PROJECT_ROOT } from '../paths.js';

export const PHRASINGS_FILE = join(PROJECT_ROOT, 'test/fixtures/search/phrasings.json');

export type Half = 'tuning' | 'held-back';

export interface Phrasing {
  readonly phrase: string;
  /** The operations that answer it; any of them in the first three counts. */
  readonly expect: readonly string[];
  readonly half: Half;
}

export interface RecallFigures {
  readonly found: number;
  readonly total: number;
  /** `phrase → first three`, for the phrasings not found. */
  readonly misses: readonly string[];
}

const TOP = 3;

export function recallAtThree(catalogue: ToolCatalogue, phrasings: readonly Phrasing[], half: Half): RecallFigures {
  const misses: string[] = [];
  let found = 0;
  const ofHalf = phrasings.filter((phrasing) => phrasing.half === half);
  for (const { phrase, expect } of ofHalf) {
    const top = searchOperations(catalogue, phrase, TOP).map((result) => result.operation.toolName);
    if (top.some((name) => expect.includes(name))) found += 1;
    else misses.push(`${phrase} → ${top.join(', ') || 'nothing'} (wanted ${expect.join(' or ')})`);
  }
  return { found, total: ofHalf.length, misses };
}

export async function readPhrasings(file: string): Promise<Phrasing[]> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as { phrasings: Phrasing[] };
  return parsed.phrasings;
}

/** The sandbox school's catalogue, built in the process as the server builds it. */
export async function sandboxCatalogue(): Promise<ToolCatalogue> {
  const school = 'http://127.0.0.1:1';
  const sandbox = createSandbox(school, {});
  try {
    const loaded = await loadDocument({
      schoolUrl: school,
      fetch: (url, init) => sandbox.fetch(new Request(url, init)),
    });
    return await buildCatalogue(loaded.document, { schoolUrl: school });
  } finally {
    await sandbox.close();
  }
}
