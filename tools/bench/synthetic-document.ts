/**
 * OpenAPI documents of any size for the scale rows, shaped like a school API: resources with
 * list/create/get/update/delete, query and path parameters, JSON bodies, shared schemas reached by
 * `$ref`, a page wrapper, error responses and per-operation OAuth scopes. Pure and deterministic.
 */

const VERBS = ['list', 'create', 'get', 'update', 'delete'] as const;

export function syntheticDocument(operationCount: number): Record<string, unknown> {
  const resources = Math.ceil(operationCount / VERBS.length);
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {
    Money: {
      type: 'object',
      description: 'An amount in a currency.',
      properties: {
        amount: { type: 'integer', minimum: 0, example: 4900 },
        currency: { type: 'string', pattern: '^[A-Z]{3}$', example: 'EUR' },
      },
      required: ['amount', 'currency'],
    },
    Error: {
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: { code: { type: 'string' }, message: { type: 'string' } },
          required: ['code', 'message'],
        },
      },
      required: ['error'],
    },
  };
  const scopes: Record<string, string> = {};
  let emitted = 0;
  for (let index = 0; index < resources && emitted < operationCount; index++) {
    const name = `resource${index}`;
    const schema = `Resource${index}`;
    scopes[`${name}:read`] = `Read access to ${name}`;
    scopes[`${name}:write`] = `Write access to ${name}`;
    schemas[schema] = resourceSchema(index);
    const collection: Record<string, unknown> = {};
    const item: Record<string, unknown> = {};
    for (const verb of VERBS) {
      if (emitted === operationCount) break;
      emitted += 1;
      const read = verb === 'list' || verb === 'get';
      const base = {
        operationId: `${verb}_${name}`,
        summary: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${name}`,
        description: `${verb === 'list' ? 'Lists' : verb === 'create' ? 'Creates' : verb === 'get' ? 'Reads' : verb === 'update' ? 'Changes' : 'Deletes'} ${name} items of the school.`,
        tags: [name],
        security: [{ oauth2: [`${name}:${read ? 'read' : 'write'}`] }],
        responses: errorResponses(),
      };
      const ref = { $ref: `#/components/schemas/${schema}` };
      if (verb === 'list') {
        collection['get'] = {
          ...base,
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 } },
            { name: 'q', in: 'query', description: 'Search text.', schema: { type: 'string', maxLength: 200 } },
          ],
          responses: {
            ...base.responses,
            '200': json({
              type: 'object',
              properties: {
                items: { type: 'array', items: ref },
                page: { type: 'integer' },
                total: { type: 'integer' },
              },
              required: ['items', 'page', 'total'],
            }),
          },
        };
      } else if (verb === 'create') {
        collection['post'] = {
          ...base,
          requestBody: { required: true, content: { 'application/json': { schema: ref } } },
          responses: { ...base.responses, '201': json(ref) },
        };
      } else {
        item['parameters'] = [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]+_[0-9]+$' } },
        ];
        if (verb === 'get') item['get'] = { ...base, responses: { ...base.responses, '200': json(ref) } };
        if (verb === 'update')
          item['patch'] = {
            ...base,
            requestBody: { required: true, content: { 'application/json': { schema: ref } } },
            responses: { ...base.responses, '200': json(ref) },
          };
        if (verb === 'delete')
          item['delete'] = { ...base, responses: { ...base.responses, '204': { description: 'Deleted.' } } };
      }
    }
    paths[`/api/v1/${name}`] = collection;
    if (Object.keys(item).length > 1) paths[`/api/v1/${name}/{id}`] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: `Synthetic school API with ${operationCount} operations`, version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:1' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: 'http://127.0.0.1:1/oauth/authorize',
              tokenUrl: 'http://127.0.0.1:1/oauth/token',
              scopes,
            },
          },
        },
      },
    },
  };
}

function resourceSchema(index: number): Record<string, unknown> {
  return {
    type: 'object',
    description: `Item ${index} of the school.`,
    properties: {
      id: { type: 'string', readOnly: true, example: `res_${index}` },
      title: { type: 'string', minLength: 1, maxLength: 200, description: 'The title people see.' },
      state: { type: 'string', enum: ['draft', 'published', 'archived'] },
      price: { $ref: '#/components/schemas/Money' },
      tags: { type: 'array', items: { type: 'string', maxLength: 50 }, maxItems: 20 },
      owner: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
      created_at: { type: 'string', format: 'date-time', readOnly: true },
      notes: { type: ['string', 'null'], maxLength: 2000 },
    },
    required: ['id', 'title', 'state'],
  };
}

function json(schema: unknown): Record<string, unknown> {
  return { description: 'OK', content: { 'application/json': { schema } } };
}

function errorResponses(): Record<string, unknown> {
  const error = {
    description: 'Error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return { '401': error, '404': error };
}

/** Counts operations the way a catalogue does: every HTTP method under every path. */
export function countOperations(document: Record<string, unknown>): number {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  let count = 0;
  for (const item of Object.values((document['paths'] ?? {}) as Record<string, Record<string, unknown>>)) {
    count += Object.keys(item).filter((key) => methods.has(key)).length;
  }
  return count;
}
