/**
 * The route table's entry: everything the API serves and everything `/openapi.json` says about it
 * come from this one declaration, so the two cannot drift.
 */
import type { Scope } from '../scopes.js';
import type { Caller } from './protect.js';
import type { JsonSchema } from './schema.js';
import type { SchoolStore } from './store/index.js';

/** The scope groups of the contract; each is an OpenAPI tag. */
export const SCOPE_GROUPS = [
  'school',
  'account',
  'courses',
  'curriculum',
  'students',
  'members',
  'orders',
  'subscriptions',
  'membership_plans',
  'coupons',
  'digital_products',
  'posts',
  'comments',
  'lecturers',
  'events',
  'forms',
  'pages',
  'appearance',
  'analytics',
  'storage',
] as const;

type ScopeGroup = (typeof SCOPE_GROUPS)[number];

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HandlerContext {
  readonly params: Readonly<Record<string, string>>;
  /** Query values, typed by the route's query schema, defaults filled in. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The validated JSON body, or the form data of a multipart upload. */
  readonly body: unknown;
  readonly caller: Caller;
  readonly store: SchoolStore;
  readonly baseUrl: string;
}

/** A handler's answer when the status differs from the route's usual one. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface ApiRoute {
  readonly method: HttpMethod;
  /** Router pattern, e.g. `/api/v1/courses/:courseId`. */
  readonly path: string;
  /** Reads as a tool name: verb first, snake_case. */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly group: ScopeGroup;
  /** Every scope a token must carry to call this operation. */
  readonly scopes: readonly Scope[];
  /**
   * What a caller without a token gets. `public`: the handler serves the public view (published
   * courses, public pages). `private`: an empty page for lists, 404 for items, and 403
   * `sign_in_required` (no challenge) for everything else.
   */
  readonly anonymous: 'public' | 'private';
  /** One schema per `:param` of `path`. */
  readonly params?: Readonly<Record<string, JsonSchema>>;
  /** Query parameters besides `page`/`per_page`. */
  readonly query?: Readonly<Record<string, JsonSchema>>;
  /** A list: adds `page`/`per_page` and answers a page of `response.schema` items. */
  readonly list?: boolean;
  readonly body?: { readonly schema: JsonSchema; readonly contentType?: 'application/json' | 'multipart/form-data' };
  readonly response: {
    readonly status: 200 | 201;
    readonly schema: JsonSchema;
    readonly description: string;
    /** A second success answer with the same body, e.g. 200 when a create finds the record already there. */
    readonly also?: { readonly status: 200; readonly description: string };
  };
  /** Conflict answers (409) the operation can give, e.g. a taken email or a refused transition. */
  readonly conflicts?: string;
  readonly handler: (context: HandlerContext) => unknown;
}

/** A resource family: its routes and the component schemas they reference. */
export interface RouteFamily {
  readonly group: ScopeGroup;
  readonly description: string;
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly routes: readonly ApiRoute[];
}

/**
 * Path parameters are camelCase inside the sandbox and snake_case on the wire, like every query
 * and body field, so an agent sees one naming style: `courseId` → `course_id`.
 */
export function wireParamName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `/api/v1/courses/:courseId` → `/api/v1/courses/{course_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => `{${wireParamName(name)}}`);
}

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
}

/** The query parameters a route accepts, as one closed object schema. */
export function routeQuerySchema(route: ApiRoute, pagination: Readonly<Record<string, JsonSchema>>): JsonSchema {
  return {
    type: 'object',
    properties: { ...(route.list ? pagination : {}), ...(route.query ?? {}) },
    additionalProperties: false,
  };
}
