/**
 * A small protected API beside the engine, on the same origin (the contract's single
 * {base_url}): `/openapi.json`, RFC 9728 metadata, and three course operations. Tokens are
 * checked by asking the engine (RFC 7662 introspection, as the API's own client): inactive,
 * unknown or bound to another resource → 401 `invalid_token`; a live token without the
 * operation's scopes → 403 `insufficient_scope` naming them; both with `WWW-Authenticate` and
 * `resource_metadata` (RFC 6750 §3, RFC 9728 §5.1). No token: served as anonymous, never
 * challenged. `publish_course` is documented with `courses:read` but needs `courses:write`, as
 * in a document that under-declares: the API is the judge, and the bridge must step up.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_CLIENT, API_SCOPES, ENGINE_PATHS } from './engine-provider.js';

interface ApiRequest {
  method: string;
  path: string;
  status: number;
}

interface Course {
  id: string;
  title: string;
  published: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  /** What the API demands, whatever the document says. */
  scopes: readonly string[];
  run(match: RegExpExecArray, body: Record<string, unknown>): Answer;
}

const API_PATHS = ['/openapi.json', '/.well-known/oauth-protected-resource', '/api/v1/'] as const;

export function isApiPath(path: string): boolean {
  return API_PATHS.some((prefix) => (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix));
}

function openApiDocument(base: string): Record<string, unknown> {
  const course = {
    type: 'object',
    properties: { id: { type: 'string' }, title: { type: 'string' }, published: { type: 'boolean' } },
    required: ['id', 'title', 'published'],
  };
  const security = (scope: string) => [{ school: [scope] }];
  return {
    openapi: '3.1.0',
    info: { title: 'Engine school API', version: '1.0.0' },
    servers: [{ url: base }],
    components: {
      securitySchemes: {
        school: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}${ENGINE_PATHS.authorization}`,
              tokenUrl: `${base}${ENGINE_PATHS.token}`,
              scopes: { 'courses:read': 'Read access to courses', 'courses:write': 'Write access to courses' },
            },
          },
        },
      },
    },
    paths: {
      '/api/v1/courses': {
        get: {
          operationId: 'listCourses',
          summary: 'List the courses',
          security: security('courses:read'),
          responses: {
            '200': {
              description: 'The courses',
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { items: { type: 'array', items: course } } },
                },
              },
            },
          },
        },
        post: {
          operationId: 'createCourse',
          summary: 'Create a course',
          security: security('courses:write'),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
              },
            },
          },
          responses: { '201': { description: 'The course', content: { 'application/json': { schema: course } } } },
        },
      },
      '/api/v1/courses/{course_id}/publish': {
        post: {
          operationId: 'publishCourse',
          summary: 'Publish a course',
          security: security('courses:read'),
          parameters: [{ name: 'course_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The course', content: { 'application/json': { schema: course } } } },
        },
      },
    },
  };
}

export interface EngineApi {
  readonly requests: ApiRequest[];
  readonly courses: Course[];
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createEngineApi(base: string, resource: string): EngineApi {
  const requests: ApiRequest[] = [];
  const courses: Course[] = [{ id: 'c1', title: 'Algebra', published: true }];
  const resourceMetadataUrl = `${base}/.well-known/oauth-protected-resource`;

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/api\/v1\/courses$/,
      scopes: ['courses:read'],
      run: () => ({ status: 200, body: { items: courses } }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/v1\/courses$/,
      scopes: ['courses:write'],
      run: (_, body) => {
        const created = {
          id: `c${courses.length + 1}`,
          title: typeof body['title'] === 'string' ? body['title'] : '',
          published: false,
        };
        courses.push(created);
        return { status: 201, body: created };
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/v1\/courses\/([^/]+)\/publish$/,
      scopes: ['courses:write'],
      run: (match) => {
        const found = courses.find((course) => course.id === decodeURIComponent(match[1]!));
        if (!found) return { status: 404, body: { error: 'not_found', error_description: 'no such course' } };
        found.published = true;
        return { status: 200, body: found };
      },
    },
  ];

  const introspect = async (token: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base}${ENGINE_PATHS.introspection}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${API_CLIENT.id}:${API_CLIENT.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    return (await response.json()) as Record<string, unknown>;
  };

  const challenge = (error: string, description: string, scopes: readonly string[] = []) =>
    `Bearer error="${error}", error_description="${description}"${scopes.length ? `, scope="${scopes.join(' ')}"` : ''}, resource_metadata="${resourceMetadataUrl}"`;

  /** The refusal to send, or `undefined` when the caller may go on (anonymous callers may). */
  const refusal = async (header: string | undefined, required: readonly string[]): Promise<Answer | undefined> => {
    if (header === undefined) return undefined;
    const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)?.[1];
    const info = token ? await introspect(token) : { active: false };
    const audience = info['aud'];
    const bound = audience === resource || (Array.isArray(audience) && audience.includes(resource));
    if (info['active'] !== true || !bound) {
      return {
        status: 401,
        body: { error: 'invalid_token' },
        headers: { 'www-authenticate': challenge('invalid_token', 'the access token is not active for this API') },
      };
    }
    const scopes = typeof info['scope'] === 'string' ? info['scope'].split(' ') : [];
    if (required.every((scope) => scopes.includes(scope))) return undefined;
    return {
      status: 403,
      body: { error: 'insufficient_scope' },
      headers: {
        'www-authenticate': challenge('insufficient_scope', 'this operation needs more permissions', required),
      },
    };
  };

  const answer = async (req: IncomingMessage, path: string): Promise<Answer> => {
    if (path === '/openapi.json') return { status: 200, body: openApiDocument(base) };
    if (path === '/.well-known/oauth-protected-resource') {
      return {
        status: 200,
        body: {
          resource,
          authorization_servers: [base],
          scopes_supported: [...API_SCOPES],
          bearer_methods_supported: ['header'],
        },
      };
    }
    const route = routes.find((candidate) => candidate.method === req.method && candidate.pattern.test(path));
    if (!route) return { status: 404, body: { error: 'not_found' } };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const refused = await refusal(req.headers.authorization, route.scopes);
    if (refused) return refused;
    // Anonymous callers get the public view: published courses, and no changes.
    if (req.headers.authorization === undefined) {
      if (req.method !== 'GET')
        return { status: 403, body: { error: 'forbidden', error_description: 'sign in to change courses' } };
      return { status: 200, body: { items: courses.filter((course) => course.published) } };
    }
    return route.run(route.pattern.exec(path)!, text ? (JSON.parse(text) as Record<string, unknown>) : {});
  };

  return {
    requests,
    courses,
    async handle(req, res) {
      const path = new URL(req.url ?? '/', base).pathname;
      const { status, body, headers } = await answer(req, path);
      requests.push({ method: req.method ?? 'GET', path, status });
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
      res.end(JSON.stringify(body));
    },
  };
}
