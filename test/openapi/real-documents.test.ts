/**
 * The generator on real third-party documents (test/fixtures/openapi/): Thinkific (operationIds,
 * no scopes; with them stripped it stands for documents that have none) and GitHub's 2020
 * description (623 operations).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, parseDocumentText, TOOL_NAME_PATTERN, type OpenApiDocument, type ToolCatalog } from '../../src/openapi/index.js';

const DOCUMENTS = [
  { file: 'thinkific-admin-v1.openapi.yaml', operations: 73 },
  { file: 'github-rest-2020-07-30.openapi.yaml', operations: 623 },
] as const;

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

function readDocument(file: string) {
  return parseDocumentText(readFileSync(join(FIXTURES, file), 'utf8'), { source: file }).document;
}

/** The Thinkific document as a platform without operationIds would publish it. */
function withoutOperationIds(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document['paths'] as Record<string, Record<string, unknown>>).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          if (typeof operation !== 'object' || operation === null || !('operationId' in operation)) return [method, operation];
          const { operationId: _dropped, ...rest } = operation as Record<string, unknown>;
          return [method, rest];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}

function newAjv() {
  // Strict mode fails on any keyword it does not know: the converter's allowlist must hold.
  return new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, validateFormats: false, allErrors: true, logger: false });
}

describe.each(DOCUMENTS)('$file', ({ file, operations }) => {
  let catalog: ToolCatalog;
  beforeAll(async () => {
    catalog = await buildCatalog(readDocument(file), { schoolUrl: 'https://school.example' });
  });

  it('makes one tool per operation', () => {
    expect(catalog.operations).toHaveLength(operations);
  });

  it('API-08 gives every tool a valid, unique name that fits a 64-character host prefix', () => {
    const names = catalog.operations.map((operation) => operation.toolName);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(`mcp__school__${name}`.length).toBeLessThanOrEqual(64);
  });

  it('gives every tool an input schema that is a closed object and compiles as JSON Schema 2020-12', () => {
    const ajv = newAjv();
    for (const operation of catalog.operations) {
      const schema = operation.inputSchema;
      expect(schema['type']).toBe('object');
      expect(schema['additionalProperties']).toBe(false);
      for (const keyword of ['anyOf', 'oneOf', 'allOf', 'not', '$ref']) expect(schema).not.toHaveProperty(keyword);
      for (const key of Object.keys(schema['properties'] as object)) expect(key).toMatch(PROPERTY_KEY);
      expect(() => ajv.compile(schema), operation.toolName).not.toThrow();
      if (operation.outputSchema) {
        expect(operation.outputSchema['type']).toBe('object');
        expect(() => ajv.compile(operation.outputSchema as object), `${operation.toolName} output`).not.toThrow();
      }
    }
  });

  it('produces schemas the MCP SDK validator accepts, with no reference left to the document', () => {
    for (const operation of catalog.operations) {
      const text = JSON.stringify(operation.inputSchema) + JSON.stringify(operation.outputSchema ?? {});
      expect(text).not.toContain('"$ref"');
      const result = fromJsonSchema(operation.inputSchema as never)['~standard'].validate({ unknown_argument_xyz: 1 });
      expect(result).not.toBeInstanceOf(Promise);
      expect((result as { issues?: unknown }).issues, operation.toolName).toBeDefined();
    }
  });

  it('names the same tools on a second run', async () => {
    const again = await buildCatalog(readDocument(file));
    expect(again.operations.map((operation) => operation.toolName)).toEqual(catalog.operations.map((operation) => operation.toolName));
  });

  it('ends every description with the access it needs', () => {
    for (const operation of catalog.operations) {
      expect(operation.description).toMatch(/(Public: no sign-in needed\.|Requires sign-in\.|Requires scopes?: .+\.)$/);
    }
  });
});

describe('documents without operationIds (Thinkific, stripped)', () => {
  it('derives readable names from method and path, whatever the order of the paths', async () => {
    const document = withoutOperationIds(readDocument('thinkific-admin-v1.openapi.yaml'));
    expect(JSON.stringify(document)).not.toContain('"operationId"');
    const reversed = { ...document, paths: Object.fromEntries(Object.entries(document['paths'] as object).reverse()) };
    const [forward, backward] = await Promise.all([buildCatalog(document), buildCatalog(reversed)]);
    const byRoute = (catalog: ToolCatalog) => new Map(catalog.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation.toolName]));
    expect(byRoute(backward)).toEqual(byRoute(forward));
    expect(byRoute(forward).get('get /courses')).toBe('list_courses');
    expect(byRoute(forward).get('get /courses/{id}')).toBe('get_courses_by_id');
    expect(byRoute(forward).get('delete /coupons/{id}')).toBe('delete_coupons_by_id');
  });

  it('groups tools by first tag when the document names no scope', async () => {
    const catalog = await buildCatalog(withoutOperationIds(readDocument('thinkific-admin-v1.openapi.yaml')));
    expect(catalog.toolsets.get('courses')?.map((operation) => operation.toolName)).toContain('list_courses');
    expect(catalog.operations.every((operation) => operation.scopeAlternatives.length === 1 && operation.scopeAlternatives[0]?.length === 0)).toBe(true);
  });
});

describe('the GitHub description', () => {
  it('API-01 ignores the servers on api.github.com and uploads.github.com for a school origin', async () => {
    const catalog = await buildCatalog(readDocument('github-rest-2020-07-30.openapi.yaml'), { schoolUrl: 'https://school.example' });
    expect(catalog.apiBase?.baseUrl).toBe('https://school.example');
    expect(catalog.warnings.some((warning) => warning.includes('"https://api.github.com"'))).toBe(true);
  });

  it('snake-cases operationIds such as repos/list-for-org', async () => {
    const catalog = await buildCatalog(readDocument('github-rest-2020-07-30.openapi.yaml'));
    const operation = catalog.operations.find((candidate) => candidate.operationId === 'repos/list-for-org');
    expect(operation?.toolName).toBe('repos_list_for_org');
    expect(operation?.toolset).toBe('repos');
  });
});
