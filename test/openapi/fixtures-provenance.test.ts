/**
 * Third-party fixtures are kept verbatim: each file matches the sha256 its provenance row names,
 * and every file in the folder has a row.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');
const PROVENANCE = readFileSync(join(FIXTURES, 'PROVENANCE.md'), 'utf8');
const ROWS = new Map(
  [...PROVENANCE.matchAll(/^\| `([^`]+)` \|.*\| ([0-9a-f]{64}) \| ([^|]+) \|$/gm)].map((match) => [
    match[1],
    { sha256: match[2], licence: match[3]?.trim() },
  ]),
);

describe('third-party OpenAPI fixtures', () => {
  const files = readdirSync(FIXTURES).filter((file) => file !== 'PROVENANCE.md');

  it.each(files)('%s has a provenance row with a permissive licence and matches its sha256', (file) => {
    const row = ROWS.get(file);
    expect(row, `no provenance row for ${file}`).toBeDefined();
    expect(row?.licence).toMatch(/^(MIT|Apache-2\.0|CC0|CC-BY)/);
    expect(
      createHash('sha256')
        .update(readFileSync(join(FIXTURES, file)))
        .digest('hex'),
    ).toBe(row?.sha256);
  });
});
