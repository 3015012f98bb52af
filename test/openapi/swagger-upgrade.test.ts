/** Swagger 2.0 upgraded to OpenAPI 3 in memory: YAML aliases kept as values, the given document left as it was. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildCatalogue, parseDocumentText } from '../../src/openapi/index.js';
import { upgradeToOpenApi3 } from '../../src/openapi/swagger-upgrade.js';
import type { ApiDocument } from '../../src/openapi/parse-document.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/openapi');

/** Two operations whose 200 answer is one anchored node, as a YAML author writes a shared response. */
const ANCHORED_SWAGGER = `swagger: "2.0"
info: {title: Anchors, version: "1"}
host: school.example
basePath: /api
produces: [application/json]
paths:
  /courses:
    get:
      operationId: listCourses
      responses:
        "200": &courses
          description: The courses.
          schema: {type: object, properties: {courses: {type: array, items: {type: string}}}}
  /archived-courses:
    get:
      operationId: listArchivedCourses
      responses:
        "200": *courses
`;

describe('the Swagger 2.0 upgrade', () => {
  it('reads a YAML alias as a copy of the anchored value, as YAML means it', async () => {
    const { document } = parseDocumentText(ANCHORED_SWAGGER, { source: 'anchors.yaml' });
    const catalogue = await buildCatalogue(document);
    expect(catalogue.upgradedFrom).toBe('Swagger 2.0');
    const list = catalogue.byName.get('list_courses');
    const archived = catalogue.byName.get('list_archived_courses');
    expect(list?.outputSchema).toBeDefined();
    expect(archived?.outputSchema).toEqual(list?.outputSchema);
  });

  it('leaves the document it is given with the value it had', async () => {
    const text = readFileSync(join(FIXTURES, 'sume-lms-course.swagger.json'), 'utf8');
    const given = JSON.parse(text) as ApiDocument;
    const { document: upgraded } = await upgradeToOpenApi3(given);
    expect(upgraded['openapi']).toMatch(/^3\./);
    expect(isDeepStrictEqual(given, JSON.parse(text))).toBe(true);

    const anchored = parseDocumentText(ANCHORED_SWAGGER, { source: 'anchors.yaml' }).document;
    const before = JSON.parse(JSON.stringify(anchored)) as unknown;
    await upgradeToOpenApi3(anchored);
    expect(isDeepStrictEqual(anchored, before)).toBe(true);
  });

  it('leaves the document as it was when the converter writes into what it is given (x-ms-parameterized-host)', async () => {
    const given = {
      swagger: '2.0',
      info: { title: 'Tenants', version: '1' },
      schemes: ['https'],
      'x-ms-parameterized-host': {
        hostTemplate: '{region}.{tenant}.school.example',
        parameters: [
          { name: 'tenant', in: 'host', required: true, type: 'string', enum: ['a', 'b'] },
          { name: 'region', in: 'host', required: true, type: 'string' },
        ],
      },
      paths: { '/courses': { get: { responses: { '200': { description: 'ok' } } } } },
    } as unknown as ApiDocument;
    const before = structuredClone(given);
    const first = await upgradeToOpenApi3(given);
    expect(given).toEqual(before);
    const second = await upgradeToOpenApi3(given);
    expect(second.document['servers']).toEqual(first.document['servers']);
    expect(JSON.stringify(first.document['servers'])).toContain('"tenant":{"enum":["a","b"]');
  });

  it('passes an OpenAPI 3 document through untouched', async () => {
    const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
    const result = await upgradeToOpenApi3(document);
    expect(result.document).toBe(document);
    expect(result.upgradedFrom).toBeUndefined();
  });
});
