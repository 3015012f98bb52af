/**
 * `/openapi.json` is valid OpenAPI 3.1, says what the bridge needs (tool-like operation ids,
 * scopes on an oauth2 scheme with the sandbox's real URLs), and matches what is served both ways.
 */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolApi, SCOPE_GROUPS } from '../../../packages/sandbox/src/api/index.js';
import { Router } from '../../../packages/sandbox/src/http/router.js';
import { SCOPES } from '@school-mcp/sandbox';
import { SchoolClient } from './school-client.js';

type Operation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema: { examples?: unknown[] } }>;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

let api: SchoolClient;
let document: any;
let fullToken: string;

beforeAll(async () => {
  api = await SchoolClient.start();
  const response = await fetch(`${api.sandbox.url}/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
  fullToken = await api.token(Object.keys(SCOPES));
});
afterAll(() => api.close());

function operations(doc: any): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
}

describe('/openapi.json', () => {
  it('API-08 is served without a token as JSON and validates as OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('carries an oauth2 authorization-code flow with the real URLs and every scope with its words', () => {
    const flow = document.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow.authorizationUrl).toBe(`${api.sandbox.url}/oauth/authorize`);
    expect(flow.tokenUrl).toBe(`${api.sandbox.url}/api/oauth/token`);
    expect(flow.scopes).toEqual(SCOPES);
    expect(document.servers).toEqual([{ url: api.sandbox.url, description: expect.any(String) }]);
  });

  it('gives every operation a unique tool-like id, a summary, a description, a scope-group tag and its scopes', () => {
    const ids = new Set<string>();
    for (const { operation } of operations(document)) {
      expect(operation.operationId).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary.length).toBeGreaterThan(5);
      expect(operation.description).toContain('Requires scope');
      expect(SCOPE_GROUPS).toContain(operation.tags[0]);
      const scoped = operation.security.find((requirement) => 'oauth2' in requirement);
      expect(scoped?.['oauth2']?.length).toBeGreaterThan(0);
      for (const scope of scoped!['oauth2']!) expect(Object.keys(SCOPES)).toContain(scope);
    }
    expect(ids).toContain('get_coupon_by_code');
    expect(ids).toContain('create_coupon');
  });

  it('shares response schemas through components and $ref', () => {
    const listCourses = document.paths['/api/v1/courses'].get as Operation;
    expect(listCourses.responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/CoursePage',
    });
    expect(document.components.schemas.CoursePage.properties.items.items).toEqual({
      $ref: '#/components/schemas/Course',
    });
    expect(listCourses.responses['401']).toEqual({ $ref: '#/components/responses/InvalidToken' });
  });
});

describe('round trip between the route table and the document', () => {
  it('documents every served /api/v1 route, and serves every documented operation', () => {
    const router = new Router();
    createSchoolApi({
      baseUrl: api.sandbox.url,
      resource: api.sandbox.url,
      verifier: { verifyAccessToken: () => undefined },
      options: {},
    }).mount(router);
    const served = router
      .list()
      .filter(({ pattern }) => pattern.startsWith('/api/v1/'))
      .map(({ method, pattern }) => `${method} ${pattern.replace(/:[A-Za-z_]+/g, '{}')}`)
      .sort();
    // Parameter names differ on purpose (camelCase inside, snake_case on the wire); the shapes must not.
    const documented = operations(document)
      .map(({ method, path }) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`)
      .sort();
    expect(documented).toEqual(served);
  });

  it('answers every documented read as documented, body valid against its response schema', async () => {
    const dereferenced: any = await dereference(structuredClone(document));
    let checked = 0;
    for (const { path, method, operation } of operations(dereferenced)) {
      if (method !== 'GET') continue;
      const url = path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
        const parameter = operation.parameters!.find(
          (candidate) => candidate.name === name && candidate.in === 'path',
        )!;
        return String(parameter.schema.examples![0]);
      });
      const answer = await api.get(url.replace('/api/v1', ''), { token: fullToken });
      expect(Object.keys(operation.responses), `${operation.operationId} answered ${answer.status}`).toContain(
        String(answer.status),
      );
      const schema = operation.responses[String(answer.status)]!.content!['application/json']!.schema;
      const verdict = await fromJsonSchema(schema as never)['~standard'].validate(answer.body);
      expect(
        'issues' in verdict ? verdict.issues : undefined,
        `${operation.operationId}: ${JSON.stringify(answer.body).slice(0, 300)}`,
      ).toBeUndefined();
      if (answer.status === 200) checked++;
    }
    expect(checked).toBeGreaterThan(35);
  });

  it('a documented write answers its documented status with a body matching the schema', async () => {
    const dereferenced: any = await dereference(structuredClone(document));
    const create = dereferenced.paths['/api/v1/coupons'].post as Operation;
    const answer = await api.post('/coupons', {
      token: fullToken,
      body: { code: 'ROUNDTRIP', discount_type: 'percent', percent_off: 15 },
    });
    expect(answer.status).toBe(201);
    const verdict = await fromJsonSchema(create.responses['201']!.content!['application/json']!.schema as never)[
      '~standard'
    ].validate(answer.body);
    expect('issues' in verdict ? verdict.issues : undefined).toBeUndefined();
    const refused = await api.post('/coupons', { token: fullToken, body: { code: 'x', discount_type: 'half' } });
    expect(refused.status).toBe(400);
    const errorSchema = dereferenced.components.schemas.Error;
    const errorVerdict = await fromJsonSchema(errorSchema)['~standard'].validate(refused.body);
    expect('issues' in errorVerdict ? errorVerdict.issues : undefined).toBeUndefined();
  });
});
