/**
 * The stored catalogue, pure: a decoded catalogue deep-equals the one built from the document
 * (sandbox, GitHub, Kubernetes, and one whose tools pass their schema budgets), its schema
 * warnings come when a tool is first read, and any text that is not exactly what the encoder
 * writes for the key decodes to nothing (ST-09).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/network/index.js';
import { createSandbox } from '@school-mcp/sandbox';
import {
  buildCatalogue,
  loadDocument,
  parseDocumentText,
  type Operation,
  type ToolCatalogue,
} from '../../src/openapi/index.js';
import { listedSchemaBytes } from '../../src/openapi/catalogue-budget.js';
import { jsonBytes } from '../../src/openapi/json-size.js';
import { scopeRoleSourcesOf } from '../../src/openapi/catalogue.js';
import { decodeCatalogue } from '../../src/openapi/catalogue-decoder.js';
import { catalogueEncoder } from '../../src/openapi/catalogue-encoder.js';
import { convertQuietly } from '../../src/openapi/operations.js';
import { SHARED_REFERENCE_KEY } from '../../src/openapi/shared-subtrees.js';
import { operationDocument } from './fixtures/minimal-document.js';
import { fanOutDocument } from '../../tools/bench/hostile-documents.js';
import type { ApiDocument } from '../../src/openapi/parse-document.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');
const KEY = 'a'.repeat(64);
const SCHOOL = 'http://127.0.0.1:1';

async function sandboxDocument(): Promise<ApiDocument> {
  const sandbox = createSandbox(SCHOOL, {});
  try {
    const fetchFromSandbox: FetchLike = (url, init) => sandbox.fetch(new Request(url, init));
    return (await loadDocument({ schoolUrl: SCHOOL, fetch: fetchFromSandbox })).document;
  } finally {
    await sandbox.close();
  }
}

function encoded(
  catalogue: ToolCatalogue,
  maxBytes = Number.MAX_SAFE_INTEGER,
  documentWarnings: readonly string[] = [],
): string | undefined {
  const encoder = catalogueEncoder(
    { key: KEY, catalogue, roleSources: scopeRoleSourcesOf(catalogue)!, documentWarnings },
    maxBytes,
  );
  for (const operation of catalogue.operations) {
    if (!encoder.add(operation, convertQuietly(operation)!)) return undefined;
  }
  const writing = encoder.write();
  let step = writing.next();
  while (step.done !== true) step = writing.next();
  return step.value;
}

/** Everything a catalogue holds, functions asked about every scope, so that two can be compared. */
function comparable(catalogue: ToolCatalogue) {
  const scopes = [...new Set(catalogue.operations.flatMap((operation) => operation.scopeAlternatives.flat()))];
  const { scopeRoles, byName, toolsets, ...rest } = catalogue;
  return {
    ...rest,
    operations: catalogue.operations.map((operation) => ({ ...operation })),
    byName: [...byName.keys()],
    toolsets: [...toolsets].map(([name, operations]) => [name, operations.map((operation) => operation.toolName)]),
    roles: {
      readable: [...scopeRoles.readable],
      changes: scopeRoles.changes,
      writeCapable: scopes.filter((scope) => scopeRoles.isWriteCapable(scope)),
      breadth: scopes.map((scope) => scopeRoles.breadth(scope)),
    },
  };
}

async function roundTrip(document: ApiDocument, schoolUrl?: string) {
  const options = schoolUrl === undefined ? {} : { schoolUrl };
  const built = await buildCatalogue(document, options);
  const text = encoded(built)!;
  const restored = decodeCatalogue(text, KEY)!;
  expect(restored).toBeDefined();
  expect(comparable(restored.catalogue)).toEqual(comparable(built));
  // The stored sizes are what measuring would find, so the tool list's budget cuts at the same tool.
  const measured = (operation: Operation) => jsonBytes(operation.inputSchema) + jsonBytes(operation.outputSchema);
  expect(restored.catalogue.operations.map((operation) => listedSchemaBytes(operation))).toEqual(
    built.operations.map(measured),
  );
  return { catalogue: restored.catalogue, storedBytes: Buffer.byteLength(text) };
}

const fixture = (name: string) =>
  parseDocumentText(readFileSync(join(FIXTURES, name), 'utf8'), { source: name }).document;

describe('a decoded catalogue deep-equals the built one', () => {
  it('on the sandbox document, built for a school URL', async () => {
    await roundTrip(await sandboxDocument(), SCHOOL);
  });

  it('on the GitHub REST document (623 operations)', async () => {
    await roundTrip(fixture('github-rest-2020-07-30.openapi.yaml'), SCHOOL);
  });

  it('on the Kubernetes document (Swagger 2.0, upgraded in memory), its repeated definitions stored once', async () => {
    const { catalogue: restored, storedBytes } = await roundTrip(fixture('kubernetes.swagger.json'));
    expect(restored.upgradedFrom).toBe('Swagger 2.0');
    expect(restored.operations.length).toBeGreaterThan(1_000);
    const whole = restored.operations.reduce(
      (sum, operation) =>
        sum +
        jsonBytes({
          parameters: operation.parameters,
          body: operation.body,
          inputSchema: operation.inputSchema,
          outputSchema: operation.outputSchema,
        }),
      0,
    );
    // 15 MB of schemas written whole; about 1.5 MB with each repeated subtree once.
    expect(whole).toBeGreaterThan(8 * storedBytes);
  });
});

describe('schema warnings of a decoded catalogue', () => {
  it('come when a tool is first read, once, as a built catalogue gives them', async () => {
    const document = fanOutDocument(4) as unknown as ApiDocument;
    const builtWarnings: string[] = [];
    const built = await buildCatalogue(document, { onSchemaWarning: (message) => builtWarnings.push(message) });
    const text = encoded(built)!;
    // Converting to store reports nothing: the built catalogue's tools were never read.
    expect(builtWarnings).toEqual([]);
    const restoredWarnings: string[] = [];
    const restored = decodeCatalogue(text, KEY, (message) => restoredWarnings.push(message))!;
    expect(restoredWarnings).toEqual([]);
    for (const [index, operation] of built.operations.entries()) {
      void operation.inputSchema;
      void restored.catalogue.operations[index]!.inputSchema;
      void restored.catalogue.operations[index]!.outputSchema;
      expect(restoredWarnings).toEqual(builtWarnings);
    }
    expect(builtWarnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/its input schema is over/),
        expect.stringMatching(/its output schema is over/),
      ]),
    );
    expect(comparable(restored.catalogue)).toEqual(comparable(built));
  });

  it('keeps what parsing the document said', async () => {
    const built = await buildCatalogue(await sandboxDocument());
    const restored = decodeCatalogue(encoded(built, undefined, ['YAML in school.yaml: a warning'])!, KEY)!;
    expect(restored.documentWarnings).toEqual(['YAML in school.yaml: a warning']);
  });
});

describe('what decodes to nothing', () => {
  const sandboxText = async () => encoded(await buildCatalogue(await sandboxDocument(), { schoolUrl: SCHOOL }))!;

  it('ST-09 ignores an entry stored under another key (another document, version or option)', async () => {
    expect(decodeCatalogue(await sandboxText(), 'b'.repeat(64))).toBeUndefined();
  });

  it('ST-09 ignores an entry of another format', async () => {
    const value = JSON.parse(await sandboxText()) as Record<string, unknown>;
    expect(decodeCatalogue(JSON.stringify({ ...value, format: 'catalogue-v0' }), KEY)).toBeUndefined();
  });

  it('ST-09 ignores a tampered entry: an unknown field, a wrong type, a duplicate tool, text that is not JSON', async () => {
    const text = await sandboxText();
    const value = JSON.parse(text) as { operations: Record<string, unknown>[] } & Record<string, unknown>;
    const [first, second] = value.operations;
    const tampered = [
      { ...value, extra: true },
      { ...value, operations: [{ ...first, method: 'fetch' }, ...value.operations.slice(1)] },
      { ...value, operations: [{ ...first, inputSchema: 'not a schema' }] },
      {
        ...value,
        operations: [
          { ...first, parameters: [{ name: 'id', in: 'body', argument: 'id', required: true, schema: {} }] },
        ],
      },
      {
        ...value,
        operations: [
          { ...first, body: { contentType: 'application/json', required: true, schema: {}, mode: 'spread' } },
        ],
      },
      { ...value, operations: [{ ...first, annotations: { readOnlyHint: 'yes' } }] },
      { ...value, operations: [{ ...first, sneaky: 1 }] },
      { ...value, operations: [{ ...first, schemaBytes: -1 }] },
      { ...value, operations: [first, { ...second, toolName: first!['toolName'] }] },
      { ...value, roleSources: [{ method: 'get', scopeAlternatives: 'all' }] },
      { ...value, apiBase: { baseUrl: 'https://elsewhere.example', origin: 'https://elsewhere.example' } },
      { ...value, groupedBy: 'whim' },
    ];
    for (const entry of tampered) expect(decodeCatalogue(JSON.stringify(entry), KEY)).toBeUndefined();
    expect(decodeCatalogue(text.slice(0, -1), KEY)).toBeUndefined();
    expect(decodeCatalogue('[]', KEY)).toBeUndefined();
    expect(decodeCatalogue(text, KEY)).toBeDefined();
  });
});

describe('repeated subtrees in a stored catalogue', () => {
  const reference = (index: unknown) => ({ [SHARED_REFERENCE_KEY]: index });
  type Stored = { shared: unknown[]; operations: Record<string, unknown>[] } & Record<string, unknown>;
  const sandboxValue = async () =>
    JSON.parse(encoded(await buildCatalogue(await sandboxDocument(), { schoolUrl: SCHOOL }))!) as Stored;

  it('are written once in a table the operations refer to', async () => {
    const value = await sandboxValue();
    expect(value.shared.length).toBeGreaterThan(0);
    expect(JSON.stringify(value.operations)).toContain(`{"${SHARED_REFERENCE_KEY}":`);
  });

  it('ST-09 ignores an entry whose operation refers past the table, or with a reference that is not exactly one index', async () => {
    const value = await sandboxValue();
    const [first] = value.operations;
    const tampered = [
      { ...value, operations: [{ ...first, outputSchema: reference(value.shared.length) }] },
      { ...value, operations: [{ ...first, outputSchema: { type: 'object', properties: { id: reference(-1) } } }] },
      { ...value, operations: [{ ...first, outputSchema: { ...reference(0), type: 'object' } }] },
      { ...value, operations: [{ ...first, parameters: [reference('0')] }] },
    ];
    for (const entry of tampered) expect(decodeCatalogue(JSON.stringify(entry), KEY)).toBeUndefined();
  });

  it('ST-09 ignores an entry whose table refers to itself or to a later entry (a cycle)', async () => {
    const value = await sandboxValue();
    const last = value.shared.length;
    const tampered = [
      { ...value, shared: [...value.shared, { type: 'array', items: reference(last) }] },
      {
        ...value,
        shared: [
          ...value.shared,
          { type: 'array', items: reference(last + 1) },
          { type: 'array', items: reference(last) },
        ],
      },
    ];
    for (const entry of tampered) expect(decodeCatalogue(JSON.stringify(entry), KEY)).toBeUndefined();
  });

  it('ST-09 ignores an entry whose table holds something that is not an object, or that has no table', async () => {
    const value = await sandboxValue();
    for (const bad of ['a string', 42, null, reference(0)])
      expect(decodeCatalogue(JSON.stringify({ ...value, shared: [...value.shared, bad] }), KEY)).toBeUndefined();
    expect(decodeCatalogue(JSON.stringify({ ...value, shared: { 0: value.shared[0] } }), KEY)).toBeUndefined();
    const { shared: _shared, ...withoutTable } = value;
    expect(decodeCatalogue(JSON.stringify(withoutTable), KEY)).toBeUndefined();
  });

  it('ST-09 ignores, without throwing, an entry whose table nests deeper than the stack allows', async () => {
    const value = await sandboxValue();
    const depth = 200_000;
    const text = JSON.stringify({ ...value, shared: 'deep' }).replace(
      '"shared":"deep"',
      `"shared":[${'['.repeat(depth)}${']'.repeat(depth)}]`,
    );
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(decodeCatalogue(text, KEY)).toBeUndefined();
  });

  it('ST-09 ignores an entry whose few references stand for more schema than a built operation can hold', async () => {
    const value = await sandboxValue();
    const base = value.shared.length;
    const doubling: unknown[] = [{ description: 'x'.repeat(1_000) }];
    for (let step = 1; step <= 12; step += 1) doubling.push([reference(base + step - 1), reference(base + step - 1)]);
    const [first] = value.operations;
    // 2^12 copies of 1 kB: 4 MB of schema from a text of a few hundred bytes.
    const bomb = {
      ...value,
      shared: [...value.shared, ...doubling],
      operations: [{ ...first, outputSchema: { type: 'object', properties: { all: reference(base + 12) } } }],
    };
    expect(decodeCatalogue(JSON.stringify(bomb), KEY)).toBeUndefined();
    // Within the bound, and with a stored size that covers its schemas (ST-16), it is read.
    const small = {
      ...bomb,
      operations: [
        { ...first, schemaBytes: 100_000, outputSchema: { type: 'object', properties: { all: reference(base + 2) } } },
      ],
    };
    expect(decodeCatalogue(JSON.stringify(small), KEY)).toBeDefined();
  });

  it(`ST-09 refuses to store a catalogue whose schemas use the property name ${SHARED_REFERENCE_KEY}, which marks a reference`, async () => {
    const schema = {
      type: 'object',
      properties: { [SHARED_REFERENCE_KEY]: { type: 'string' }, name: { type: 'string' } },
    };
    const document = operationDocument('post', '/notes', {
      operationId: 'createNote',
      requestBody: { content: { 'application/json': { schema } } },
    });
    const built = await buildCatalogue(document);
    expect(JSON.stringify(built.operations[0]!.inputSchema)).toContain(SHARED_REFERENCE_KEY);
    expect(encoded(built)).toBeUndefined();
  });
});

describe('the size bound', () => {
  it('ST-09 refuses to encode a catalogue over the bound, before building its text', async () => {
    const built = await buildCatalogue(await sandboxDocument());
    const whole = encoded(built)!;
    expect(encoded(built, Buffer.byteLength(whole)) === whole).toBe(true);
    expect(encoded(built, Buffer.byteLength(whole) - 1)).toBeUndefined();
  });
});
