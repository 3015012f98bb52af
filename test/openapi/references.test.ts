/** References resolved on read: pointers through other references, chains, loops, and the catalogue built on them. */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/openapi/index.js';
import { resolvePointer } from '../../src/openapi/json-pointer.js';
import { resolveSchema } from '../../src/openapi/resolve-schema.js';
import { documentWith } from './fixtures/minimal-document.js';

describe('resolvePointer', () => {
  const root = {
    components: {
      schemas: {
        Course: { type: 'object', properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' } } },
        Alias: { $ref: '#/components/schemas/Course' },
      },
      responses: {
        Ok: { $ref: '#/components/responses/Real' },
        Real: { content: { 'application/json': { schema: { type: 'object' } } } },
      },
      loops: { A: { $ref: '#/components/loops/B' }, B: { $ref: '#/components/loops/A' } },
    },
  };

  it('decodes the RFC 6901 escapes and percent-encoding', () => {
    expect(resolvePointer(root, '#/components/schemas/Course/properties/a~1b')).toEqual({
      found: true,
      value: { type: 'string' },
    });
    expect(resolvePointer(root, '#/components/schemas/Course/properties/c~0d')).toEqual({
      found: true,
      value: { type: 'integer' },
    });
    expect(resolvePointer(root, '#/components/schemas/Cour%73e/type')).toEqual({ found: true, value: 'object' });
  });

  it('follows a reference met on the way', () => {
    expect(resolvePointer(root, '#/components/responses/Ok/content/application~1json/schema')).toEqual({
      found: true,
      value: { type: 'object' },
    });
    expect(resolvePointer(root, '#/components/schemas/Alias/properties/c~0d/type')).toEqual({
      found: true,
      value: 'integer',
    });
  });

  it('API-08 ends a reference loop met on the way instead of spinning', () => {
    expect(resolvePointer(root, '#/components/loops/A/type')).toEqual({ found: false });
  });

  it('finds nothing for missing keys, bad escapes and non-local references', () => {
    expect(resolvePointer(root, '#/components/schemas/Missing')).toEqual({ found: false });
    expect(resolvePointer(root, '#/components/%E0%A4%A')).toEqual({ found: false });
    expect(resolvePointer(root, 'https://example.com/schema.json')).toEqual({ found: false });
    expect(resolvePointer(root, '#components')).toEqual({ found: false });
  });
});

describe('resolveSchema', () => {
  const root = {
    components: {
      schemas: {
        Course: { type: 'object', description: 'A course.' },
        Alias: { $ref: '#/components/schemas/Course', description: 'The alias.' },
        Loop: { $ref: '#/components/schemas/Loop' },
      },
    },
  };

  it('follows a chain of references, the outermost siblings winning (OpenAPI 3.1 description override)', () => {
    expect(resolveSchema({ $ref: '#/components/schemas/Alias' }, root)).toEqual({
      type: 'object',
      description: 'The alias.',
    });
    expect(resolveSchema({ $ref: '#/components/schemas/Alias', description: 'Here.' }, root)).toEqual({
      type: 'object',
      description: 'Here.',
    });
  });

  it('hands back the very object when a reference adds nothing, and the input when nothing resolves', () => {
    expect(resolveSchema({ $ref: '#/components/schemas/Course' }, root)).toBe(root.components.schemas.Course);
    const missing = { $ref: '#/components/schemas/Missing' };
    expect(resolveSchema(missing, root)).toBe(missing);
  });

  it('API-08 stops on a reference to itself', () => {
    const self = { $ref: '#/components/schemas/Loop' };
    expect(resolveSchema(self, root)).toEqual(self);
  });
});

describe('a catalogue over references of every kind', () => {
  it('resolves referenced path items, parameters, request bodies and responses, through chains', async () => {
    const document = documentWith(
      { '/courses/{course_id}': { $ref: '#/components/pathItems/Course' } },
      {
        components: {
          pathItems: {
            Course: {
              parameters: [{ $ref: '#/components/parameters/CourseIdAlias' }],
              patch: {
                operationId: 'updateCourse',
                requestBody: { $ref: '#/components/requestBodies/CourseChange' },
                responses: { '200': { $ref: '#/components/responses/CourseOk' } },
              },
            },
          },
          parameters: {
            CourseIdAlias: { $ref: '#/components/parameters/CourseId' },
            CourseId: {
              name: 'course_id',
              in: 'path',
              required: true,
              schema: { type: 'integer' },
              description: 'The course.',
            },
          },
          requestBodies: {
            CourseChange: {
              required: true,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/CourseChange' } } },
            },
          },
          responses: {
            CourseOk: {
              description: 'OK',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Course' } } },
            },
          },
          schemas: {
            CourseChange: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
            Course: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } },
          },
        },
      },
    );
    const catalogue = await buildCatalogue(document);
    const [operation] = catalogue.operations;
    expect(catalogue.warnings).toEqual([]);
    expect(operation?.toolName).toBe('update_course');
    const properties = operation?.inputSchema['properties'] as Record<string, unknown>;
    expect(properties['course_id']).toMatchObject({ type: 'integer', description: 'The course.' });
    expect(properties['title']).toMatchObject({ type: 'string' });
    expect(operation?.inputSchema['required']).toEqual(expect.arrayContaining(['course_id', 'title']));
    expect(operation?.outputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string' } },
    });
    expect(JSON.stringify(operation)).not.toContain('$ref');
  });
});

describe('references outside schemas', () => {
  it('reads parameter examples and security schemes that are references', async () => {
    const document = documentWith(
      {
        '/courses': {
          get: {
            operationId: 'listCourses',
            security: [{ school: ['courses:read'] }],
            parameters: [
              {
                name: 'q',
                in: 'query',
                schema: { type: 'string' },
                examples: { word: { $ref: '#/components/examples/Word' } },
              },
            ],
            responses: { '200': { description: 'OK' } },
          },
        },
      },
      {
        components: {
          examples: { Word: { value: 'piano' } },
          securitySchemes: {
            school: { $ref: '#/components/securitySchemes/real' },
            real: {
              type: 'oauth2',
              flows: {
                authorizationCode: {
                  authorizationUrl: 'https://s.example/a',
                  tokenUrl: 'https://s.example/t',
                  scopes: { 'courses:read': 'Read courses.' },
                },
              },
            },
          },
        },
      },
    );
    const catalogue = await buildCatalogue(document);
    const [operation] = catalogue.operations;
    expect((operation!.inputSchema['properties'] as Record<string, unknown>)['q']).toMatchObject({
      examples: ['piano'],
    });
    expect(operation?.requiredScopes).toEqual(['courses:read']);
    expect(catalogue.scopeDescriptions).toMatchObject({ 'courses:read': 'Read courses.' });
  });
});
