/**
 * What hosts are shown has one type per schema: a `type` list (`["string","null"]`) is refused by
 * single-type schema dialects (several model APIs) and flagged by MCP Inspector's strict mode.
 * Every tool of every third-party document and of the sandbox is listed in full and walked; and
 * the rewriting itself is checked to accept exactly what the list accepted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import {
  buildCatalogue,
  fitListedSchemas,
  loadDocument,
  parseDocumentText,
  withSingleTypes,
  type ToolCatalogue,
} from '../../src/openapi/index.js';
import { createSandbox } from '@school-mcp/sandbox';
import {
  createSchoolServerFactory,
  listServerTools,
  type AccountService,
  type OperationCaller,
} from '../../src/server/index.js';
import { CORPUS } from '../openapi/support/corpus.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');
const SCHOOL = 'http://127.0.0.1:1';

const neverCalled: OperationCaller = () => Promise.reject(new Error('not called in this test'));
const signedOut: AccountService = {
  status: () => Promise.reject(new Error('no account')),
  signOut: () => Promise.reject(new Error('no account')),
};

async function sandboxCatalogue(): Promise<ToolCatalogue> {
  const sandbox = createSandbox(SCHOOL, {});
  try {
    const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
    return await buildCatalogue((await loadDocument({ schoolUrl: SCHOOL, fetch: fetchFromSandbox })).document, {
      schoolUrl: SCHOOL,
    });
  } finally {
    await sandbox.close();
  }
}

/** Every operation as its own tool, in full (no compact listing), plus the server's own tools. */
async function listEverything(catalogue: ToolCatalogue) {
  const fitted = fitListedSchemas(catalogue.operations);
  const factory = createSchoolServerFactory({
    catalogue,
    plan: { direct: fitted.operations, discovery: true },
    call: neverCalled,
    account: signedOut,
    schoolName: 'school',
    version: '0',
  });
  return listServerTools(factory);
}

/** Where a `type` is a list, as JSON pointers. */
function typeLists(value: unknown, at = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  if (!Array.isArray(value) && Array.isArray((value as Record<string, unknown>)['type'])) found.push(at || '/');
  for (const [key, child] of Object.entries(value)) found.push(...typeLists(child, `${at}/${key}`));
  return found;
}

async function expectNoTypeLists(catalogue: ToolCatalogue): Promise<number> {
  const tools = await listEverything(catalogue);
  const offending = tools.flatMap((tool) => [
    ...typeLists(tool.inputSchema).map((pointer) => `${tool.name} input ${pointer}`),
    ...typeLists(tool.outputSchema).map((pointer) => `${tool.name} output ${pointer}`),
  ]);
  expect(offending.slice(0, 10)).toEqual([]);
  return tools.length;
}

describe('listed schemas have one type per schema', () => {
  it('for every tool of the sandbox school, whose document has type lists', async () => {
    const catalogue = await sandboxCatalogue();
    expect(typeLists(catalogue.operations.map((operation) => operation.inputSchema)).length).toBeGreaterThan(0);
    expect(await expectNoTypeLists(catalogue)).toBeGreaterThan(catalogue.operations.length);
  });

  it.each(CORPUS.map((entry) => entry.file))('for every tool of %s', { timeout: 120_000 }, async (file) => {
    const { document } = parseDocumentText(readFileSync(join(FIXTURES, file), 'utf8'), { source: file });
    const catalogue = await buildCatalogue(document, {});
    expect(await expectNoTypeLists(catalogue)).toBeGreaterThanOrEqual(catalogue.operations.length);
  });
});

describe('withSingleTypes', () => {
  const ajv = new Ajv2020({ strict: false, logger: false });
  const VALUES: unknown[] = [null, 'ab', 'abcdef', '', 3, 3.5, -1, true, [], [1], ['a', 'b'], {}, { a: 1 }, { b: 'x' }];

  it.each([
    [{ type: ['string', 'null'], maxLength: 4, description: 'a name' }],
    [{ type: ['string', 'null'], enum: ['ab', null] }],
    [{ type: ['integer', 'string'], minimum: 0, pattern: '^a', format: 'int32' }],
    [{ type: ['array', 'null'], items: { type: ['integer', 'null'] }, minItems: 1 }],
    [{ type: ['object', 'null'], properties: { a: { type: ['number', 'boolean'] } }, required: ['a'] }],
    [{ type: ['string', 'number'], anyOf: [{ minLength: 3 }, { minimum: 3 }] }],
    [{ type: ['boolean'] }],
  ])('accepts exactly what %j accepted, with no type list left', (schema) => {
    const single = withSingleTypes(schema);
    expect(typeLists(single)).toEqual([]);
    const before = ajv.compile(schema);
    const after = ajv.compile(single);
    for (const value of VALUES) expect(after(value), JSON.stringify(value)).toBe(before(value));
  });

  it('keeps the shared words on top and each type its own keywords', () => {
    expect(withSingleTypes({ type: ['string', 'null'], description: 'd', maxLength: 4, default: null })).toEqual({
      description: 'd',
      default: null,
      anyOf: [{ type: 'string', maxLength: 4 }, { type: 'null' }],
    });
  });

  it('returns a schema without type lists as the same object', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { items: { type: 'integer' } } } };
    expect(withSingleTypes(schema)).toBe(schema);
  });
});
