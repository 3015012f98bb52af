/**
 * Every check of the security checklist is cited by at least one test, so coverage is visible
 * and cannot silently shrink. The fault-injection rows (FI-) restate checks that have ids of their
 * own, so they are not required here.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const checklist = resolve(root, '../shared/research/security.md');

async function testSources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return testSources(path);
      return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}

describe.runIf(existsSync(checklist))('security checklist coverage', () => {
  it('cites every check id of security.md in some test', async () => {
    const ids = [...new Set((await readFile(checklist, 'utf8')).match(/\b(?!FI-)[A-Z]{2,5}-\d{2}\b/g) ?? [])].sort();
    expect(ids.length).toBeGreaterThan(90);
    const files = (await testSources(join(root, 'test'))).filter((file) => !file.endsWith('security-coverage.test.ts'));
    const sources = (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
    expect(ids.filter((id) => !sources.includes(id))).toEqual([]);
  });
});
