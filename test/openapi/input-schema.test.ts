import { describe, expect, it } from 'vitest';
import { buildCatalogue, type Operation } from '../../src/openapi/index.js';
import { documentWith, operationDocument } from './fixtures/minimal-document.js';

async function onlyOperation(document: Parameters<typeof buildCatalogue>[0]): Promise<Operation> {
  const catalogue = await buildCatalogue(document);
  const [operation] = catalogue.operations;
  if (!operation) throw new Error(`no operation built: ${catalogue.warnings.join('; ')}`);
  return operation;
}

const properties = (operation: Operation) =>
  operation.inputSchema['properties'] as Record<string, Record<string, unknown>>;

describe('input schemas', () => {
  it('merges path, query and header parameters and an object body into one closed object', async () => {
    const operation = await onlyOperation(
      operationDocument('put', '/courses/{course_id}', {
        parameters: [
          { name: 'course_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'notify', in: 'query', schema: { type: 'boolean', default: false } },
          { name: 'X-Request-Id', in: 'header', schema: { type: 'string', format: 'uuid' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['title'],
                properties: { title: { type: 'string' }, price: { type: 'integer', minimum: 0 } },
              },
            },
          },
        },
      }),
    );
    expect(operation.inputSchema).toEqual({
      type: 'object',
      properties: {
        course_id: { type: 'string' },
        notify: { type: 'boolean', default: false },
        'X-Request-Id': { type: 'string', format: 'uuid' },
        title: { type: 'string' },
        price: { type: 'integer', minimum: 0 },
      },
      required: ['course_id', 'title'],
      additionalProperties: false,
    });
    expect(operation.body).toMatchObject({
      mode: 'merged',
      contentType: 'application/json',
      propertyArguments: { title: 'title', price: 'price' },
    });
  });

  it('resolves name collisions by location order: path first, then query, header, body', async () => {
    const operation = await onlyOperation(
      operationDocument('patch', '/items/{id}', {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'id', in: 'query', schema: { type: 'string' } },
          { name: 'filter[status]', in: 'query', schema: { type: 'string' } },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
            },
          },
        },
      }),
    );
    expect(Object.keys(properties(operation))).toEqual(['id', 'id_query', 'filter_status', 'id_body', 'name']);
    expect(operation.parameters.map((parameter) => [parameter.name, parameter.in, parameter.argument])).toEqual([
      ['id', 'path', 'id'],
      ['id', 'query', 'id_query'],
      ['filter[status]', 'query', 'filter_status'],
    ]);
    expect(operation.body?.propertyArguments).toEqual({ id_body: 'id', name: 'name' });
    expect(properties(operation)['id_body']?.['description']).toContain('"id"');
  });

  it('wraps a non-object body in one "body" argument', async () => {
    const operation = await onlyOperation(
      operationDocument('post', '/tags', {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
        },
      }),
    );
    expect(properties(operation)['body']).toEqual({ type: 'array', items: { type: 'string' } });
    expect(operation.inputSchema['required']).toEqual(['body']);
    expect(operation.body).toMatchObject({ mode: 'wrapped', argument: 'body' });
  });

  it('turns OpenAPI 3.0 nullable into a type array and adds null to enums', async () => {
    const operation = await onlyOperation({
      ...operationDocument('get', '/courses', {
        parameters: [
          { name: 'level', in: 'query', schema: { type: 'string', nullable: true, enum: ['basic', 'pro'] } },
          { name: 'after', in: 'query', schema: { type: 'integer', minimum: 3, exclusiveMinimum: true } },
        ],
      }),
      openapi: '3.0.3',
    });
    expect(properties(operation)['level']).toEqual({ type: ['string', 'null'], enum: ['basic', 'pro', null] });
    expect(properties(operation)['after']).toEqual({ type: 'integer', exclusiveMinimum: 3 });
  });

  it('leaves readOnly properties out of inputs and writeOnly ones out of outputs', async () => {
    const course = {
      type: 'object',
      required: ['id', 'title'],
      properties: {
        id: { type: 'string', readOnly: true },
        title: { type: 'string' },
        secret: { type: 'string', writeOnly: true },
      },
    };
    const operation = await onlyOperation(
      documentWith(
        {
          '/courses': {
            post: {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Course' } } },
              },
              responses: {
                '201': {
                  description: 'Created',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Course' } } },
                },
              },
            },
          },
        },
        { components: { schemas: { Course: course } } },
      ),
    );
    expect(Object.keys(properties(operation))).toEqual(['title', 'secret']);
    expect(operation.inputSchema['required']).toEqual(['title']);
    expect(Object.keys(operation.outputSchema?.['properties'] as object)).toEqual(['id', 'title']);
  });

  it('carries formats, enums, defaults and examples, and drops OpenAPI-only keywords', async () => {
    const operation = await onlyOperation(
      operationDocument('get', '/orders', {
        parameters: [
          {
            name: 'since',
            in: 'query',
            description: 'Only orders after this <b>time</b>, see [docs](https://x.example).',
            example: '2025-01-01T00:00:00Z',
            schema: { type: 'string', format: 'date-time', 'x-internal': true, xml: { name: 'since' } },
          },
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['paid', 'refunded'], default: 'paid', example: 'paid' },
          },
        ],
      }),
    );
    expect(properties(operation)['since']).toEqual({
      type: 'string',
      format: 'date-time',
      description: 'Only orders after this time, see docs.',
      examples: ['2025-01-01T00:00:00Z'],
    });
    expect(properties(operation)['status']).toEqual({
      type: 'string',
      enum: ['paid', 'refunded'],
      default: 'paid',
      examples: ['paid'],
    });
  });

  it('merges an allOf of objects and flattens a top-level union body into optional properties', async () => {
    const operation = await onlyOperation(
      operationDocument('post', '/payments', {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { type: 'object', required: ['card'], properties: { card: { type: 'string' } } },
                  {
                    allOf: [
                      { type: 'object', properties: { iban: { type: 'string' } } },
                      { type: 'object', required: ['holder'], properties: { holder: { type: 'string' } } },
                    ],
                  },
                ],
              },
            },
          },
        },
      }),
    );
    expect(Object.keys(properties(operation))).toEqual(['card', 'iban', 'holder']);
    expect(operation.inputSchema).not.toHaveProperty('required');
    expect(operation.inputSchema).not.toHaveProperty('oneOf');
    expect(operation.body?.mode).toBe('merged');
    expect(operation.body?.schema['description']).toContain('One of 2 shapes');
  });

  it('API-05 drops header parameters that carry credentials or framing, and cookie parameters', async () => {
    const headers = [
      'Authorization',
      'Proxy-Authorization',
      'Cookie',
      'Host',
      'Content-Length',
      'Transfer-Encoding',
      'Connection',
      'X-Forwarded-For',
      'x-forwarded-host',
    ];
    const operation = await onlyOperation(
      operationDocument('get', '/me', {
        parameters: [
          ...headers.map((name) => ({ name, in: 'header', required: true, schema: { type: 'string' } })),
          { name: 'session', in: 'cookie', required: true, schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
      }),
    );
    expect(Object.keys(properties(operation))).toEqual(['X-Trace']);
    expect(operation.parameters.map((parameter) => parameter.name)).toEqual(['X-Trace']);
    expect(operation.inputSchema).not.toHaveProperty('required');
  });

  it('gives multipart file fields the {filename, content_base64, content_type?} shape', async () => {
    const operation = await onlyOperation(
      operationDocument('post', '/storage/files', {
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary', description: 'The upload.' },
                  folder: { type: 'string' },
                },
              },
            },
          },
        },
      }),
    );
    expect(operation.body).toMatchObject({
      contentType: 'multipart/form-data',
      mode: 'merged',
      fileProperties: ['file'],
    });
    expect(properties(operation)['file']).toMatchObject({
      type: 'object',
      required: ['filename', 'content_base64'],
      description: 'The upload.',
    });
    expect(operation.inputSchema['required']).toEqual(['file']);
  });

  it('merges operation parameters over path-item parameters of the same name and location', async () => {
    const operation = await onlyOperation(
      documentWith({
        '/courses/{id}': {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'From the path item.' },
            { name: 'lang', in: 'query', schema: { type: 'string' } },
          ],
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: { '200': { description: 'OK' } },
          },
        },
      }),
    );
    expect(properties(operation)).toEqual({ id: { type: 'integer' }, lang: { type: 'string' } });
  });

  it('declares an output schema only for a JSON object success response', async () => {
    const catalogue = await buildCatalogue(
      documentWith({
        '/courses': {
          get: {
            responses: {
              '200': {
                description: 'OK',
                content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } },
              },
            },
          },
        },
        '/courses/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: {
              '200': {
                description: 'OK',
                content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
              },
            },
          },
        },
      }),
    );
    expect(catalogue.operations.map((operation) => operation.outputSchema)).toEqual([
      undefined,
      { type: 'object', properties: { id: { type: 'string' } } },
    ]);
  });
});
