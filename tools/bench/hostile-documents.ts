/**
 * Documents written to exhaust a bridge (API-11), generated rather than committed: small texts
 * whose schemas expand without bound once references are followed. Used by the tests and by the
 * bench's "hostile documents" rows. Pure and deterministic.
 *
 * Fan-out: `Level0` has `width` properties that each refer to `Level1`, and so on for `levels`
 * levels, so one reference to `Level0` stands for width^levels leaves, each carrying a description
 * and an example just under the size a schema keeps. Every operation refers to `Level0` in its
 * body or its answer, and asks for a scope of a toolset the default configuration lists.
 */

export interface FanOutOptions {
  readonly levels?: number;
  readonly width?: number;
}

export function fanOutDocument(operationCount: number, options: FanOutOptions = {}): Record<string, unknown> {
  const levels = options.levels ?? 5;
  const width = options.width ?? 8;
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/components/schemas/Level${level + 1}` };
    schemas[`Level${level}`] = {
      type: 'object',
      description: `Level ${level} of a structure that refers to the next level ${width} times. `.repeat(3),
      properties: Object.fromEntries(Array.from({ length: width }, (_, index) => [`field_${index}`, next])),
    };
  }
  schemas[`Level${levels}`] = {
    type: 'object',
    description: 'The leaf, with an example that is repeated wherever the leaf is.',
    properties: {
      note: { type: 'string', example: 'n'.repeat(1_500) },
      code: { type: 'string', enum: Array.from({ length: 40 }, (_, index) => `code_${index}`) },
    },
  };
  const root = { $ref: '#/components/schemas/Level0' };
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < operationCount; index++) {
    const read = index % 2 === 0;
    const operation = {
      operationId: `${read ? 'get' : 'create'}_thing_${index}`,
      summary: `${read ? 'Reads' : 'Creates'} thing ${index}`,
      security: [{ oauth2: [read ? 'courses:read' : 'courses:write'] }],
      ...(read ? {} : { requestBody: { required: true, content: { 'application/json': { schema: root } } } }),
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: root } } } },
    };
    paths[`/things${index}`] = { [read ? 'get' : 'post']: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Fan-out of ${levels} levels, ${operationCount} operations`, version: '1' },
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://school.example/oauth/authorize',
              tokenUrl: 'https://school.example/oauth/token',
              scopes: { 'courses:read': 'Read courses', 'courses:write': 'Change courses' },
            },
          },
        },
      },
    },
  };
}
