/**
 * Small documents whose schemas expand without bound (API-11): each tool schema and the whole
 * tool list stay within their budgets, only listed tools are converted, and a tool over budget
 * is still listed and callable, simplified, with a warning. Sizes and completion are asserted,
 * never timings (those are in BENCHMARKS.md, "Hostile documents").
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, fitListedSchemas, type Operation } from '../../src/openapi/index.js';
import { SIMPLIFIED_TOOL_BYTES, MAX_LISTED_SCHEMA_BYTES } from '../../src/openapi/catalogue-budget.js';
import { MAX_POINTER_STEPS, resolvePointer } from '../../src/openapi/json-pointer.js';
import { MAX_PARAMETERS } from '../../src/openapi/parameters.js';
import { fanOutDocument } from '../../tools/bench/hostile-documents.js';
import { operationDocument } from './fixtures/minimal-document.js';
import { MAX_TOOL_SCHEMA_BYTES } from '../../src/openapi/schema-budget.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));
const schemaBytes = (operation: Operation) => bytes(operation.inputSchema) + bytes(operation.outputSchema);

async function catalogueWithWarnings(document: Record<string, unknown>) {
  const late: string[] = [];
  const catalogue = await buildCatalogue(document as never, { onSchemaWarning: (message) => late.push(message) });
  return { catalogue, late };
}

describe('tool schema budget', () => {
  it('API-11 keeps each schema of a five-level $ref fan-out within its budget, simplified with a warning', async () => {
    const { catalogue, late } = await catalogueWithWarnings(fanOutDocument(4));
    const [read, create] = catalogue.operations;
    if (!read || !create) throw new Error('the fan-out document has no operations');
    for (const operation of catalogue.operations) {
      expect(bytes(operation.inputSchema)).toBeLessThanOrEqual(MAX_TOOL_SCHEMA_BYTES);
      expect(bytes(operation.outputSchema)).toBeLessThanOrEqual(MAX_TOOL_SCHEMA_BYTES);
    }
    // The body cannot be listed: one argument takes it as JSON, and the call sends it as it is.
    expect(create.inputSchema).toEqual({
      type: 'object',
      properties: { body: { description: expect.stringContaining('too large to list') } },
      required: ['body'],
      additionalProperties: false,
    });
    expect(create.body).toMatchObject({
      mode: 'wrapped',
      argument: 'body',
      contentType: 'application/json',
      required: true,
    });
    expect(read.outputSchema).toBeUndefined();
    expect(late).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^create_thing_1: its input schema is over/),
        expect.stringMatching(/^get_thing_0: its output schema is over/),
      ]),
    );
  });

  it('API-11 keeps parameters that fit and the path parameters when the body is too large', async () => {
    const document = fanOutDocument(2);
    const paths = document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
    const create = paths['/things1']!['post']!;
    paths['/things1/{id}'] = {
      post: {
        ...create,
        parameters: [{ name: 'notify', in: 'query', schema: { type: 'boolean', description: 'Tell the owner.' } }],
      },
    };
    delete paths['/things1'];
    const { catalogue } = await catalogueWithWarnings(document);
    const operation = catalogue.operations.find((candidate) => candidate.pathTemplate === '/things1/{id}')!;
    expect(operation.inputSchema['properties']).toEqual({
      id: { type: 'string', description: 'The id in the path.' },
      notify: { type: 'boolean', description: 'Tell the owner.' },
      body: { description: expect.stringContaining('one JSON value') },
    });
    expect(operation.inputSchema['required']).toEqual(['id', 'body']);
    expect(operation.parameters.map((parameter) => parameter.argument)).toEqual(['id', 'notify']);
  });

  it('API-11 leaves out an example, enum or default too long for a tool, however often it is referenced', async () => {
    const big = {
      type: 'string',
      example: 'x'.repeat(100_000),
      default: 'y'.repeat(100_000),
      enum: Array.from({ length: 20_000 }, (_, index) => `v${index}`),
    };
    const body = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 50 }, (_, index) => [`f${index}`, { $ref: '#/components/schemas/Big' }]),
      ),
    };
    const document = operationDocument(
      'post',
      '/x',
      { requestBody: { content: { 'application/json': { schema: body } } } },
      { components: { schemas: { Big: big } } },
    );
    const { catalogue, late } = await catalogueWithWarnings(document);
    const properties = catalogue.operations[0]!.inputSchema['properties'] as Record<string, unknown>;
    expect(Object.keys(properties)).toHaveLength(50);
    expect(properties['f0']).toEqual({ type: 'string' });
    expect(late).toEqual([]);
  });

  it('API-11 uses the first 128 parameters of an operation that declares thousands, with a warning', async () => {
    const parameters = Array.from({ length: 5_000 }, (_, index) => ({
      name: `p${index}`,
      in: 'query',
      schema: { type: 'string' },
    }));
    const { catalogue } = await catalogueWithWarnings(operationDocument('get', '/x', { parameters }));
    expect(catalogue.operations[0]!.parameters).toHaveLength(MAX_PARAMETERS);
    expect(catalogue.warnings.join('\n')).toContain(`only the first ${MAX_PARAMETERS} are used`);
  });

  it('API-11 stops a reference lookup after a bounded number of pointer steps', () => {
    let chain: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < MAX_POINTER_STEPS + 10; level++) chain = { a: chain };
    const root = { chain };
    expect(resolvePointer(root, `#/chain${'/a'.repeat(MAX_POINTER_STEPS - 10)}`).found).toBe(true);
    expect(resolvePointer(root, `#/chain${'/a'.repeat(MAX_POINTER_STEPS + 10)}`).found).toBe(false);
  });
});

describe('conversion on first use', () => {
  it('API-11 converts no schema while building a 5,000-operation fan-out catalogue, and one tool when it is read', async () => {
    const { catalogue, late } = await catalogueWithWarnings(fanOutDocument(5_000));
    expect(catalogue.operations).toHaveLength(5_000);
    expect(late).toEqual([]);
    expect(schemaBytes(catalogue.operations[4_999]!)).toBeLessThanOrEqual(2 * MAX_TOOL_SCHEMA_BYTES);
    expect(late).toEqual([
      expect.stringMatching(/^create_thing_4999: its input schema/),
      expect.stringMatching(/^create_thing_4999: its output schema/),
    ]);
  });
});

describe('tool list budget', () => {
  const large = (index: number) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 300 }, (_, property) => [
        `field_${index}_${property}`,
        { type: 'string', description: `Field ${property} of ${index}. `.repeat(5) },
      ]),
    ),
  });

  it('API-11 lists every tool, the ones past the list budget simplified, and warns once', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [
        `/r${index}/{id}`,
        {
          put: {
            requestBody: { content: { 'application/json': { schema: large(index) } } },
            responses: { '200': { description: 'OK' } },
          },
        },
      ]),
    );
    const { catalogue } = await catalogueWithWarnings({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths });
    const budget = 256 * 1024;
    const listed = fitListedSchemas(catalogue.operations, budget);
    expect(listed.operations.map((operation) => operation.toolName)).toEqual(
      catalogue.operations.map((operation) => operation.toolName),
    );
    const full = listed.operations.filter(
      (operation, index) => operation.inputSchema === catalogue.operations[index]!.inputSchema,
    );
    const simplified = listed.operations.slice(full.length);
    expect(full.length).toBeGreaterThan(0);
    expect(simplified.length).toBeGreaterThan(0);
    expect(full.reduce((sum, operation) => sum + schemaBytes(operation), 0)).toBeLessThanOrEqual(budget);
    for (const operation of simplified) {
      expect(bytes(operation.inputSchema)).toBeLessThanOrEqual(SIMPLIFIED_TOOL_BYTES);
      expect(operation.outputSchema).toBeUndefined();
      expect(Object.keys(operation.inputSchema['properties'] as object)).toEqual(['id', 'body']);
      expect(operation.body).toMatchObject({ mode: 'wrapped', argument: 'body' });
    }
    expect(listed.warnings).toEqual([
      expect.stringContaining(`the last ${simplified.length} of 30 tools are listed simplified`),
    ]);
  });

  it('has a list budget far above what a large real document needs', () => {
    // The GitHub REST description's 623 tools need about 1.1 MB of schemas (real-documents.test.ts).
    expect(MAX_LISTED_SCHEMA_BYTES).toBeGreaterThanOrEqual(3 * 1_100_000);
  });

  it('leaves a list within its budget as it is', async () => {
    const { catalogue } = await catalogueWithWarnings(operationDocument('get', '/x', {}));
    const listed = fitListedSchemas(catalogue.operations);
    expect(listed.operations[0]).toBe(catalogue.operations[0]);
    expect(listed.warnings).toEqual([]);
  });
});
