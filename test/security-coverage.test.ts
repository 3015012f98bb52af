/**
 * SECURITY.md lists every security check as a table row `| ID | rule | test files |`. This test
 * keeps that list and the tests honest with each other, so coverage stays visible and cannot
 * silently shrink:
 * (a) every listed check is cited in the title of at least one test outside this file;
 * (b) every test file a row names exists and contains that id;
 * (c) every id cited in a test title is listed, so a test cannot claim a check that does not exist.
 * A missing SECURITY.md is a failure, never a skip.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const securityDocument = join(root, 'SECURITY.md');
const thisFile = fileURLToPath(import.meta.url);

/** The original checklist had 100 checks besides its fault-injection rows; dropping one is a decision, made here. */
const MINIMUM_CHECKS = 100;

/** `LB-01`, `STDIO-04`; a sub-item such as `BR-04c` cites `BR-04`. */
const CHECK_ID = /\b([A-Z]{2,5}-\d{2})(?!\d)/g;
const CHECK_ROW = /^\|\s*([A-Z]{2,5}-\d{2})\s*\|.*\|([^|]*)\|\s*$/;
const TEST_FILE_PATH = /test\/[\w./-]+\.(?:ts|mjs)\b/g;
/**
 * The title of a test or suite: the first string argument of `it`, `test` or `describe` (with
 * modifiers such as `.each` or `.skipIf`), and the string right after `)(` as in `it.each(rows)('title')`.
 */
const TEST_TITLE = /(?:\b(?:it|test|describe)(?:\.\w+)*|\))\(\s*(['"`])((?:\\.|(?!\1)[^\\])*?)\1/g;

interface ListedCheck {
  id: string;
  files: string[];
}

interface TestSource {
  /** Relative to the repository root, with forward slashes, as SECURITY.md names it. */
  path: string;
  text: string;
}

function idsIn(text: string): string[] {
  return [...text.matchAll(CHECK_ID)].map((match) => match[1]!);
}

function citesId(text: string, id: string): boolean {
  return idsIn(text).includes(id);
}

function titleIdsOf(source: string): string[] {
  return [...source.matchAll(TEST_TITLE)].flatMap((match) => idsIn(match[2]!));
}

function parseListedChecks(markdown: string): ListedCheck[] {
  return markdown.split('\n').flatMap((line) => {
    const row = CHECK_ROW.exec(line.trim());
    return row ? [{ id: row[1]!, files: row[2]!.match(TEST_FILE_PATH) ?? [] }] : [];
  });
}

async function readListedChecks(): Promise<ListedCheck[]> {
  const markdown = await readFile(securityDocument, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `SECURITY.md must exist at the repository root: it lists the security checks this test holds the tests to (${error.code})`,
    );
  });
  return parseListedChecks(markdown);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return /\.(ts|mjs)$/.test(entry.name) && path !== thisFile ? [path] : [];
    }),
  );
  return nested.flat();
}

async function readTestSources(): Promise<TestSource[]> {
  const files = await filesUnder(join(root, 'test'));
  return Promise.all(
    files.map(async (file) => ({
      path: relative(root, file).split(sep).join('/'),
      text: await readFile(file, 'utf8'),
    })),
  );
}

describe('SECURITY.md and the tests cite each other', () => {
  it('SECURITY.md lists every check once, each with the test files that cover it', async () => {
    const checks = await readListedChecks();
    expect(checks.length, `SECURITY.md lists ${checks.length} checks`).toBeGreaterThanOrEqual(MINIMUM_CHECKS);
    const ids = checks.map(({ id }) => id);
    const duplicates = ids
      .filter((id, index) => ids.indexOf(id) !== index)
      .map((id) => `${id} is listed more than once`);
    expect(duplicates).toEqual([]);
    const withoutFiles = checks.filter(({ files }) => files.length === 0).map(({ id }) => `${id} names no test file`);
    expect(withoutFiles).toEqual([]);
  });

  it('(a) every listed check is cited in a test title outside this file', async () => {
    const [checks, sources] = await Promise.all([readListedChecks(), readTestSources()]);
    const cited = new Set(sources.flatMap(({ text }) => titleIdsOf(text)));
    const uncited = checks.filter(({ id }) => !cited.has(id)).map(({ id }) => `${id}: no test title cites it`);
    expect(uncited).toEqual([]);
  });

  it('(b) every test file named in a row exists and contains that id', async () => {
    const [checks, sources] = await Promise.all([readListedChecks(), readTestSources()]);
    const textOf = new Map(sources.map(({ path, text }) => [path, text]));
    const wrong = checks.flatMap(({ id, files }) =>
      files.flatMap((file) => {
        const text = textOf.get(file);
        if (text === undefined) return [`${id}: ${file} does not exist`];
        return citesId(text, id) ? [] : [`${id}: ${file} does not contain ${id}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('(c) every id cited in a test title is listed in SECURITY.md', async () => {
    const [checks, sources] = await Promise.all([readListedChecks(), readTestSources()]);
    const listed = new Set(checks.map(({ id }) => id));
    const unknown = sources.flatMap(({ path, text }) =>
      [...new Set(titleIdsOf(text))]
        .filter((id) => !listed.has(id))
        .map((id) => `${id} in ${path}: not listed in SECURITY.md`),
    );
    expect(unknown).toEqual([]);
  });
});
