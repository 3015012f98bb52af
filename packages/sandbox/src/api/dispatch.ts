/**
 * Turns one route-table entry into a router handler: bearer rules first, then the anonymous view,
 * then input validation, then the handler, with every failure in the one error body format.
 */
import type { RouteHandler } from '../http/router.js';
import { ApiError, errorResponse, invalidInput, notFound } from './api-error.js';
import { paginate, paginationQuery } from './pagination.js';
import { decideAccess, type Caller, type ProtectionConfig } from './protect.js';
import { Reply, routeQuerySchema, wireParamName, type ApiRoute } from './route.js';
import type { JsonSchema } from './schema.js';
import type { SchoolStore } from './store/index.js';
import { withUtcDateTimes } from './utc-on-write.js';
import { readQuery, validateValue, type Components, type FieldProblem } from './validate.js';

export interface DispatchConfig {
  readonly protection: ProtectionConfig;
  readonly store: SchoolStore;
  readonly components: Components;
  readonly baseUrl: string;
}

export function routeHandler(route: ApiRoute, config: DispatchConfig): RouteHandler {
  const querySchema = routeQuerySchema(route, paginationQuery);
  return async (request, { params, url }) => {
    const decision = decideAccess(request.headers.get('authorization'), route.scopes, config.protection);
    if (!decision.allowed) return errorResponse(decision.error, { 'www-authenticate': decision.challenge });
    try {
      const query = readQuery(url.searchParams, querySchema, config.components);
      const problems = [...query.problems, ...checkParams(route, params, config.components)];
      if (problems.length > 0) throw invalidInput(problems);
      if (decision.caller.kind === 'anonymous' && route.anonymous === 'private')
        return anonymousAnswer(route, query.value, params);
      const body = await readBody(route, request, config.components);
      const result = await route.handler({
        params,
        query: query.value,
        body,
        caller: decision.caller,
        store: config.store,
        baseUrl: config.baseUrl,
      });
      const reply = result instanceof Reply ? result : new Reply(route.response.status, result);
      if (route.method !== 'GET') config.store.changed();
      return Response.json(reply.body, { status: reply.status, headers: privacyHeaders(decision.caller) });
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
  };
}

/** Answers a token-less call to a private operation with what an anonymous visitor may see. */
function anonymousAnswer(
  route: ApiRoute,
  query: Readonly<Record<string, unknown>>,
  params: Readonly<Record<string, string>>,
): Response {
  if (route.method === 'GET' && route.list) {
    return Response.json(paginate([], query['page'] as number, query['per_page'] as number));
  }
  if (route.method === 'GET' && Object.keys(params).length > 0) {
    const id = Object.values(params).at(-1)!;
    return errorResponse(notFound(route.group.replace(/s$/, '').replace(/_/g, ' '), id));
  }
  return errorResponse(
    new ApiError(
      'sign_in_required',
      `${route.operationId} is not available to anonymous visitors; call it with a token carrying ${route.scopes.join(' ')}`,
    ),
  );
}

function checkParams(
  route: ApiRoute,
  params: Readonly<Record<string, string>>,
  components: Components,
): FieldProblem[] {
  return Object.entries(params).flatMap(([name, value]) => {
    const schema = route.params?.[name];
    return schema ? validateValue(value, schema, components, wireParamName(name)) : [];
  });
}

async function readBody(route: ApiRoute, request: Request, components: Components): Promise<unknown> {
  if (!route.body) return undefined;
  const contentType = request.headers.get('content-type')?.toLowerCase() ?? '';
  const expected = route.body.contentType ?? 'application/json';
  if (contentType === '' && request.body === null && bodyIsOptional(route.body.schema)) return {};
  if (!contentType.startsWith(expected)) {
    throw new ApiError('unsupported_media_type', `send the body as ${expected}`);
  }
  if (expected === 'multipart/form-data') {
    try {
      return await request.formData();
    } catch {
      throw new ApiError('invalid_request', 'the multipart body could not be read');
    }
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new ApiError('invalid_request', 'the body is not valid JSON');
  }
  const problems = validateValue(body, route.body.schema, components);
  if (problems.length > 0) throw invalidInput(problems);
  return withUtcDateTimes(body, route.body.schema, components);
}

/** An inline body schema with no required field may be left out entirely, e.g. a deployment note. */
function bodyIsOptional(schema: JsonSchema): boolean {
  return schema.$ref === undefined && (schema.required ?? []).length === 0;
}

/** Answers made for a token are that user's data: keep them out of shared caches. */
function privacyHeaders(caller: Caller): Record<string, string> {
  return caller.kind === 'token' ? { 'cache-control': 'no-store' } : {};
}
