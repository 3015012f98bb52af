/**
 * docs/errors.md's table is the user's and the agent's reference for every code in
 * `errorCodes` (src/errors.ts). This test keeps the two equal: a code missing from the table, a row
 * for a code that is not in the list, a repeated row, or a row without its next step all fail. It
 * also fails on a listed code that nothing in src/ raises, so the list does not keep dead codes.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../src/errors.js';

const root = resolve(import.meta.dirname, '../..');

interface ErrorRow {
  code: string;
  whatHappened: string;
  nextStep: string;
}

/** The rows of the page's `| Code | What happened | Next step |` table, up to the next heading. */
function errorTableRows(page: string): ErrorRow[] {
  const start = page.search(/^\| Code \| What happened \| Next step \|\s*$/m);
  if (start === -1) return [];
  const rest = page.slice(start);
  const end = rest.search(/^#/m);
  const section = end === -1 ? rest : rest.slice(0, end);
  const rows: ErrorRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line
      .match(/^\|(.*)\|\s*$/)?.[1]
      ?.split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (cells === undefined || cells.length !== 3) continue;
    const code = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? '')?.[1];
    if (code === undefined) continue;
    rows.push({ code, whatHappened: cells[1] ?? '', nextStep: cells[2] ?? '' });
  }
  return rows;
}

function tableProblems(page: string, codes: readonly string[]): string[] {
  const rows = errorTableRows(page);
  if (rows.length === 0) return ['docs/errors.md has no "| Code | What happened | Next step |" table'];
  const problems: string[] = [];
  const listed = new Set(codes);
  const seen = new Set<string>();
  for (const row of rows) {
    if (!listed.has(row.code)) problems.push(`${row.code} is in the table but not in errorCodes (src/errors.ts)`);
    if (seen.has(row.code)) problems.push(`${row.code} has more than one row`);
    seen.add(row.code);
    if (row.whatHappened === '') problems.push(`${row.code} says nothing about what happened`);
    if (row.nextStep === '') problems.push(`${row.code} has no next step`);
  }
  for (const code of codes) {
    if (!seen.has(code)) problems.push(`${code} is missing from the table`);
  }
  return problems;
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const plantedTable = [
  '# Errors',
  '',
  '| Code | What happened | Next step |',
  '|---|---|---|',
  '| `CONFIG_INVALID` | An option was refused. | Run `--help`. |',
  '| `NOT_A_CODE` | Made up. | Nothing. |',
  '| `HTTP_LISTEN_FAILED` | The port is taken. |  |',
  '',
  '## Next',
].join('\n');

describe('the error table of docs/errors.md', () => {
  it('names every code of errorCodes once, with what happened and the next step', async () => {
    const page = await readFile(join(root, 'docs', 'errors.md'), 'utf8');
    expect(tableProblems(page, errorCodes)).toEqual([]);
  });

  it('reports a missing code, a code not in the list and an empty next step', () => {
    expect(tableProblems(plantedTable, ['CONFIG_INVALID', 'HTTP_LISTEN_FAILED', 'OAUTH_CLOSED'])).toEqual([
      'NOT_A_CODE is in the table but not in errorCodes (src/errors.ts)',
      'HTTP_LISTEN_FAILED has no next step',
      'OAUTH_CLOSED is missing from the table',
    ]);
  });

  it('reports a page without the table', () => {
    expect(tableProblems('# Errors\n', ['CONFIG_INVALID'])).toEqual([
      'docs/errors.md has no "| Code | What happened | Next step |" table',
    ]);
  });

  it('reads no row past the next heading', () => {
    const page = `${plantedTable.replace('| `NOT_A_CODE` | Made up. | Nothing. |\n', '')}\n\n| \`OAUTH_CLOSED\` | Later. | Elsewhere. |`;
    expect(tableProblems(page, ['CONFIG_INVALID', 'HTTP_LISTEN_FAILED', 'OAUTH_CLOSED'])).toContain(
      'OAUTH_CLOSED is missing from the table',
    );
  });
});

describe('the error code list', () => {
  it('holds only codes that something in src/ raises or branches on', async () => {
    const files = (await sourceFiles(join(root, 'src'))).filter((file) => !file.endsWith(join('src', 'errors.ts')));
    const sources = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    const unused = errorCodes.filter((code) => !sources.some((text) => text.includes(`'${code}'`)));
    expect(unused).toEqual([]);
  });

  it('has no repeated code', () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
  });
});
