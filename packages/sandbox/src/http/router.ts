/**
 * A small fetch-style router: routes are `METHOD /path/:param` patterns, handlers take a web
 * `Request` and return a `Response`. The sandbox serves everything through it, so tests can call
 * `sandbox.fetch(request)` in-process or go over real HTTP and get the same answers.
 */

type RouteParams = Readonly<Record<string, string>>;

interface RouteContext {
  readonly params: RouteParams;
  readonly url: URL;
}

export type RouteHandler = (request: Request, context: RouteContext) => Response | Promise<Response>;

interface Route {
  method: string;
  pattern: string;
  segments: readonly string[];
  handler: RouteHandler;
}

export interface RouteMatch {
  handler: RouteHandler;
  params: RouteParams;
  pattern: string;
}

export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: RouteHandler): this {
    this.#routes.push({ method: method.toUpperCase(), pattern, segments: splitPath(pattern), handler });
    return this;
  }

  /** Every registered `METHOD pattern`, in registration order. */
  list(): Array<{ method: string; pattern: string }> {
    return this.#routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /**
   * Finds the route for a method and path. `allowed` lists the methods the path answers to when
   * the method itself does not match, so the caller can say 405 instead of 404.
   */
  match(method: string, pathname: string): { route?: RouteMatch; allowed: string[] } {
    const segments = splitPath(pathname);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method.toUpperCase() || (method.toUpperCase() === 'HEAD' && route.method === 'GET')) {
        return { route: { handler: route.handler, params, pattern: route.pattern }, allowed };
      }
      allowed.push(route.method);
    }
    return { allowed };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const value = actual[i]!;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        return undefined;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected !== value) {
      return undefined;
    }
  }
  return params;
}
