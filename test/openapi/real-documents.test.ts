/**
 * The generator on real third-party documents (test/fixtures/openapi/, provenance in
 * PROVENANCE.md): learning platforms and others, OpenAPI 3 and Swagger 2.0, from 15 to 1,123
 * operations. Each document is parsed once here, then built in a worker under a deadline (a hang
 * of the generator fails the test, never the suite); the rest of the checks read that catalogue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildCatalogue,
  parseDocumentText,
  selectOperations,
  type Operation,
  type ToolCatalogue,
} from '../../src/openapi/index.js';
import { BUILD_DEADLINE_MS, buildInWorker, type WorkerCatalogue } from './support/build-in-worker.js';
import { CORPUS as DOCUMENTS } from './support/corpus.js';
import { TOOL_NAME_PATTERN } from '../../src/openapi/tool-names.js';
import type { ApiDocument } from '../../src/openapi/parse-document.js';

/** `toolsets`: some that must be there; `groupedBy`: what they were made from. */

/** Compiling a schema costs Ajv ~10 ms; past this many operations an even spread of them is compiled. */
const MAX_COMPILED_OPERATIONS = 150;

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

const parsedDocuments = new Map<string, ApiDocument>();

/**
 * Each fixture parsed once per file: parsing the YAML was most of this file's CPU. The copy is
 * frozen, so a build that wrote into the document it was given would throw here instead of
 * changing what later tests read.
 */
function readDocument(file: string): ApiDocument {
  let document = parsedDocuments.get(file);
  if (document === undefined) {
    document = deepFreeze(parseDocumentText(readFileSync(join(FIXTURES, file), 'utf8'), { source: file }).document);
    parsedDocuments.set(file, document);
  }
  return document;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function spread<T>(items: readonly T[], most: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / most));
  return items.filter((_, index) => index % step === 0);
}

/** The Thinkific document as a platform without operationIds would publish it. */
function withoutOperationIds(document: ApiDocument): ApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document['paths'] as Record<string, Record<string, unknown>>).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          if (typeof operation !== 'object' || operation === null || !('operationId' in operation))
            return [method, operation];
          const { operationId: _dropped, ...rest } = operation as Record<string, unknown>;
          return [method, rest];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}

function newAjv() {
  // Strict mode fails on any keyword it does not know (the converter's allowlist must hold), and
  // strict types on a keyword whose type the schema does not declare, as strict hosts do.
  return new Ajv2020({
    strict: true,
    strictTypes: true,
    allowUnionTypes: true,
    strictTuples: false,
    strictRequired: false,
    validateFormats: false,
    logger: false,
    code: { optimize: false },
  });
}

describe.each(DOCUMENTS)('$file', ({ file, operations, groupedBy, toolsets }) => {
  let catalogue: WorkerCatalogue;
  beforeAll(async () => {
    catalogue = await buildInWorker(
      { document: readDocument(file), schoolUrl: 'https://school.example' },
      BUILD_DEADLINE_MS,
    );
  }, 60_000);

  it('loads before the watchdog fires and makes one tool per operation', () => {
    expect(catalogue.operations).toHaveLength(operations);
  });

  it('groups the tools into toolsets named from scopes, tags or paths, never from a URL', () => {
    expect(catalogue.groupedBy).toBe(groupedBy);
    const names = catalogue.toolsets.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining([...toolsets]));
    for (const name of names) expect(name).toMatch(/^(?!https?_)[a-z0-9_]{1,40}$/);
  });

  it('API-09 marks reads read-only and deletes destructive', () => {
    for (const operation of catalogue.operations) {
      const read = operation.method === 'get' || operation.method === 'head';
      expect(operation.annotations.readOnlyHint, operation.toolName).toBe(read);
      if (operation.method === 'delete') expect(operation.annotations.destructiveHint, operation.toolName).toBe(true);
    }
  });

  it('API-08 gives every tool a valid, unique name that fits a 64-character host prefix', () => {
    const names = catalogue.operations.map((operation) => operation.toolName);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(`mcp__school__${name}`.length).toBeLessThanOrEqual(64);
  });

  it('gives every tool an input schema that is a closed object and compiles as JSON Schema 2020-12 with strict types', () => {
    const ajv = newAjv();
    for (const operation of spread(catalogue.operations, MAX_COMPILED_OPERATIONS) as Operation[]) {
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
    for (const operation of catalogue.operations) {
      const text = JSON.stringify(operation.inputSchema) + JSON.stringify(operation.outputSchema ?? {});
      // A property may be named `$ref` (Kubernetes' JSONSchemaProps has one); a reference has a string value.
      expect(text).not.toMatch(/"\$ref":"/);
    }
    for (const operation of spread(catalogue.operations, MAX_COMPILED_OPERATIONS) as Operation[]) {
      const result = fromJsonSchema(operation.inputSchema as never)['~standard'].validate({ unknown_argument_xyz: 1 });
      expect(result).not.toBeInstanceOf(Promise);
      expect((result as { issues?: unknown }).issues, operation.toolName).toBeDefined();
    }
  });

  // The second run is in this process, with the sources rather than the built code: another thread
  // and copy of the generator, and no worker to start again.
  it('names the same tools on a second run', async () => {
    const again = await buildCatalogue(readDocument(file));
    expect(again.operations.map((operation) => operation.toolName)).toEqual(
      catalogue.operations.map((operation) => operation.toolName),
    );
  }, 60_000);

  it('ends every description with the access it needs', () => {
    for (const operation of catalogue.operations) {
      expect(operation.description).toMatch(/(Public: no sign-in needed\.|Requires sign-in\.|Requires scopes?: .+\.)$/);
    }
  });
});

describe('documents without operationIds (Thinkific, stripped)', () => {
  it('derives readable names from method and path, whatever the order of the paths', async () => {
    const document = withoutOperationIds(readDocument('thinkific-admin-v1.openapi.yaml'));
    expect(JSON.stringify(document)).not.toContain('"operationId"');
    const reversed = {
      ...document,
      paths: Object.fromEntries(Object.entries(document['paths'] as object).reverse()),
    } as ApiDocument;
    const [forward, backward] = await Promise.all([buildCatalogue(document), buildCatalogue(reversed)]);
    const byRoute = (catalogue: ToolCatalogue) =>
      new Map(
        catalogue.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation.toolName]),
      );
    expect(byRoute(backward)).toEqual(byRoute(forward));
    expect(byRoute(forward).get('get /courses')).toBe('list_courses');
    expect(byRoute(forward).get('get /courses/{id}')).toBe('get_courses_by_id');
    expect(byRoute(forward).get('delete /coupons/{id}')).toBe('delete_coupons_by_id');
  });

  it('groups tools by first tag when the document names no scope', async () => {
    const catalogue = await buildCatalogue(withoutOperationIds(readDocument('thinkific-admin-v1.openapi.yaml')));
    expect(catalogue.toolsets.get('courses')?.map((operation) => operation.toolName)).toContain('list_courses');
    expect(
      catalogue.operations.every(
        (operation) => operation.scopeAlternatives.length === 1 && operation.scopeAlternatives[0]?.length === 0,
      ),
    ).toBe(true);
  });
});

describe('the GitHub description', () => {
  let catalogue: Awaited<ReturnType<typeof buildCatalogue>>;
  beforeAll(async () => {
    catalogue = await buildCatalogue(readDocument('github-rest-2020-07-30.openapi.yaml'), {
      schoolUrl: 'https://school.example',
    });
  }, 60_000);

  it('API-01 ignores the servers on api.github.com and uploads.github.com for a school origin', () => {
    expect(catalogue.apiBase?.baseUrl).toBe('https://school.example');
    expect(catalogue.warnings.some((warning) => warning.includes('"https://api.github.com"'))).toBe(true);
  });

  it('snake-cases operationIds such as repos/list-for-org', () => {
    const operation = catalogue.operations.find((candidate) => candidate.operationId === 'repos/list-for-org');
    expect(operation?.toolName).toBe('repos_list_for_org');
    expect(operation?.toolset).toBe('repos');
  });
});

const CLASSROOM = 'https://www.googleapis.com/auth/classroom';

describe('Google Classroom: URL-form scopes with alternatives', () => {
  it('groups by the scope tail and asks a read for the read-only alternative', async () => {
    const catalogue = await buildCatalogue(readDocument('google-classroom-v1.openapi.yaml'));
    const listCourses = catalogue.byName.get('list_courses');
    expect(listCourses?.toolset).toBe('courses');
    expect(listCourses?.scopeAlternatives).toEqual(
      expect.arrayContaining([[`${CLASSROOM}.courses`], [`${CLASSROOM}.courses.readonly`]]),
    );
    expect(listCourses?.requiredScopes).toEqual([`${CLASSROOM}.courses.readonly`]);
    expect(catalogue.byName.get('create_courses')?.requiredScopes).toEqual([`${CLASSROOM}.courses`]);
    expect(catalogue.scopeRoles.isWriteCapable(`${CLASSROOM}.courses`)).toBe(true);
    expect(catalogue.scopeRoles.isWriteCapable(`${CLASSROOM}.courses.readonly`)).toBe(false);
  });

  it('API-09 never lets read-only mode ask for a read-write alternative', async () => {
    const catalogue = await buildCatalogue(readDocument('google-classroom-v1.openapi.yaml'));
    const selected = selectOperations(catalogue, { readOnly: true });
    expect(selected.operations.length).toBeGreaterThan(10);
    expect(selected.operations.every((operation) => operation.method === 'get')).toBe(true);
    const asked = selected.operations.flatMap((operation) => operation.scopeAlternatives.flat());
    expect(asked.filter((scope) => catalogue.scopeRoles.isWriteCapable(scope))).toEqual([]);
    expect(selected.byName.get('list_courses')?.requiredScopes).toEqual([`${CLASSROOM}.courses.readonly`]);
    expect(selectOperations(catalogue, { toolsets: ['courses'] }).operations.length).toBeGreaterThan(0);
  });

  it('names operations by method and path when operationIds are reused, keeping one name per id and warning about the rest', async () => {
    // Each operationId cut to its first word (`list`, `get`, `patch`...), as some generators emit them.
    const document = readDocument('google-classroom-v1.openapi.yaml');
    const paths = Object.fromEntries(
      Object.entries(document['paths'] as Record<string, Record<string, unknown>>).map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item).map(([key, value]) => {
            const operation = value as Record<string, unknown>;
            return typeof operation['operationId'] === 'string'
              ? [key, { ...operation, operationId: operation['operationId'].split('.')[0] }]
              : [key, value];
          }),
        ),
      ]),
    );
    const reused = { ...document, paths } as ApiDocument;
    const [forward, backward] = await Promise.all([
      buildCatalogue(reused),
      buildCatalogue({ ...reused, paths: Object.fromEntries(Object.entries(paths).reverse()) } as ApiDocument),
    ]);
    const byRoute = (catalogue: ToolCatalogue) =>
      new Map(
        catalogue.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation.toolName]),
      );
    expect(byRoute(backward)).toEqual(byRoute(forward));
    const names = forward.operations.map((operation) => operation.toolName);
    expect(new Set(names).size).toBe(61);
    // Hashes only where method and path alone run past 51 characters, never to settle a collision.
    expect(names.filter((name) => /_[0-9a-f]{6}$/.test(name) && name.length < 40)).toEqual([]);
    // The shortest path keeps the plain name; the others take their method and path.
    expect(byRoute(forward).get('get /v1/courses/{id}')).toBe('get');
    expect(byRoute(forward).get('get /v1/courses')).toBe('list');
    expect(byRoute(forward).get('delete /v1/courses/{courseId}/aliases/{alias}')).toBe(
      'delete_courses_by_course_id_aliases_by_alias',
    );
    expect(forward.warnings.filter((warning) => warning.startsWith('Tool name "list"')).length).toBeGreaterThan(5);
  });
});

describe('OneRoster 1.2: no operationIds under a long shared prefix', () => {
  it('drops the shared /ims/oneroster/rostering/v1p2 prefix from names and never needs a hash', async () => {
    const catalogue = await buildCatalogue(readDocument('edfi-oneroster-v1p2.openapi.yaml'));
    const names = catalogue.operations.map((operation) => operation.toolName);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_academic_sessions',
        'get_academic_sessions_by_id',
        'list_classes',
        'list_demographics',
      ]),
    );
    for (const name of names) expect(name).not.toMatch(/ims|oneroster|v1p2|_[0-9a-f]{6}$/);
  });

  it('asks for the narrower core scope where the full roster scope is also accepted', async () => {
    const catalogue = await buildCatalogue(readDocument('edfi-oneroster-v1p2.openapi.yaml'));
    expect(catalogue.byName.get('list_classes')?.requiredScopes).toEqual([
      'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly',
    ]);
    expect(selectOperations(catalogue, { readOnly: true }).operations).toHaveLength(24);
  });
});

describe('Swagger 2.0 documents', () => {
  it('are upgraded in memory and say so', async () => {
    const catalogue = await buildCatalogue(readDocument('sume-lms-course.swagger.json'));
    expect(catalogue.upgradedFrom).toBe('Swagger 2.0');
    expect(catalogue.operations.map((operation) => operation.toolName)).toEqual(
      expect.arrayContaining(['list_courses', 'create_courses', 'get_courses_by_uuid', 'delete_courses_by_uuid']),
    );
    expect((await buildCatalogue(readDocument('thinkific-admin-v1.openapi.yaml'))).upgradedFrom).toBeUndefined();
  });
});

describe('Magento: deep bracketed parameter names', () => {
  it('turns searchCriteria[filterGroups][0][filters][0][field] into a valid argument that maps back to the wire name', async () => {
    const catalogue = await buildCatalogue(readDocument('magento-cart.openapi.yaml'));
    const parameters = catalogue.operations
      .flatMap((operation) => operation.parameters)
      .filter((parameter) => parameter.name.startsWith('searchCriteria['));
    expect(parameters.length).toBeGreaterThan(0);
    expect(parameters.map((parameter) => parameter.argument)).toContain(
      'searchCriteria_filterGroups_0_filters_0_field',
    );
  });
});

describe('new operations that collide with existing names', () => {
  it('API-10 keeps every existing tool name when a new operation reuses an operationId or a path name, and warns about the collision', async () => {
    const document = readDocument('thinkific-admin-v1.openapi.yaml');
    const before = await buildCatalogue(document);
    const withNewcomers = {
      ...document,
      paths: {
        ...(document['paths'] as object),
        '/v2/courses/{id}': { get: { operationId: 'getCourseByID', responses: { '200': { description: 'OK' } } } },
        '/v2/coupons': { get: { responses: { '200': { description: 'OK' } } } },
      },
    } as ApiDocument;
    const after = await buildCatalogue(withNewcomers);
    const names = (catalogue: ToolCatalogue) =>
      new Map(
        catalogue.operations.map((operation) => [`${operation.method} ${operation.pathTemplate}`, operation.toolName]),
      );
    const kept = names(after);
    for (const [route, name] of names(before)) expect(kept.get(route), route).toBe(name);
    expect(new Set(kept.values()).size).toBe(kept.size);
    expect(after.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Tool name "get_course_by_id" of GET \/v2\/courses\/\{id\} is already taken by GET \/courses\/\{id\}/,
        ),
      ]),
    );
  });
});
