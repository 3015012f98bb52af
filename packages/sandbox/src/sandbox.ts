/**
 * Assembles the sandbox school: the authorization server and the business API on one router,
 * behind the fault knobs, served in-process (`fetch`) or over real HTTP on 127.0.0.1. Every
 * request is recorded, so a test can assert that an endpoint was (or was not) called.
 */
import type { AccessTokenVerifier } from './access-token.js';
import { createSchoolApi } from './api/index.js';
import {
  createAuthorizationServer,
  type GrantStats,
  type IntegrationCredentials,
  type IntegrationRequest,
} from './auth/index.js';
import { Router } from './http/router.js';
import { listen, type FetchHandler } from './http/serve.js';
import type { FaultOptions, SandboxOptions } from './options.js';

/** One request the sandbox received, in arrival order. */
export interface RecordedRequest {
  readonly method: string;
  /** The pathname, without the query. */
  readonly path: string;
}

export interface SandboxApp {
  readonly baseUrl: string;
  /** The issuer identifier; equal to `baseUrl`. */
  readonly issuer: string;
  /** The protected resource identifier of the business API. */
  readonly resource: string;
  fetch: FetchHandler;
  /** Every request received so far, faulted ones included. */
  readonly requests: readonly RecordedRequest[];
  /** How many requests reached `path` (optionally with `method`). */
  countRequests(path: string, method?: string): number;
  /**
   * Registers a confidential client with fixed callbacks (https, or http on 127.0.0.1), as a
   * school's staff would; its secret is sent with `client_secret_post`.
   */
  registerIntegration(request: IntegrationRequest): IntegrationCredentials;
  /** Counts of the authorization server's, for tests (in-process only). */
  stats(): GrantStats;
  close(): Promise<void>;
}

export interface RunningSandbox extends SandboxApp {
  /** Same as `baseUrl`. */
  readonly url: string;
  readonly port: number;
}

export function createSandbox(baseUrl: string, options: SandboxOptions = {}): SandboxApp {
  const resource = baseUrl;
  const router = new Router();
  const authServer = createAuthorizationServer({ baseUrl, resource, options });
  const api = createSchoolApi({ baseUrl, resource, verifier: authServer, options });
  authServer.mount(router);
  api.mount(router);
  const requests: RecordedRequest[] = [];
  const faulted = withFaults(
    options.faults ?? {},
    { verifier: authServer, resourceMetadataUrl: `${baseUrl}/.well-known/oauth-protected-resource` },
    async (request: Request) => {
      const url = new URL(request.url);
      const { route, allowed } = router.match(request.method, url.pathname);
      if (route) return route.handler(request, { params: route.params, url });
      if (allowed.length > 0) {
        return Response.json(
          { error: 'method_not_allowed', error_description: `${request.method} is not allowed here` },
          { status: 405, headers: { allow: [...new Set(allowed)].join(', ') } },
        );
      }
      return Response.json({ error: 'not_found', error_description: `no such path: ${url.pathname}` }, { status: 404 });
    },
  );
  const handle: FetchHandler = (request) => {
    requests.push({ method: request.method.toUpperCase(), path: new URL(request.url).pathname });
    return faulted(request);
  };
  return {
    baseUrl,
    issuer: baseUrl,
    resource,
    fetch: handle,
    requests,
    countRequests: (path, method) =>
      requests.filter((entry) => entry.path === path && (method === undefined || entry.method === method.toUpperCase()))
        .length,
    registerIntegration: (request) => authServer.registerIntegration(request),
    stats: () => authServer.stats(),
    close: () => api.close(),
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  let app: SandboxApp | undefined;
  const server = await listen(
    (url) => {
      app = createSandbox(url, options);
      return app.fetch;
    },
    { port: options.port ?? 0 },
  );
  const ready = app!;
  return {
    baseUrl: ready.baseUrl,
    issuer: ready.issuer,
    resource: ready.resource,
    fetch: ready.fetch,
    requests: ready.requests,
    countRequests: ready.countRequests,
    registerIntegration: ready.registerIntegration,
    stats: ready.stats,
    url: server.url,
    port: server.port,
    async close() {
      await server.close();
      await ready.close();
    },
  };
}

interface FaultContext {
  readonly verifier: AccessTokenVerifier;
  readonly resourceMetadataUrl: string;
}

function withFaults(faults: FaultOptions, context: FaultContext, handler: FetchHandler): FetchHandler {
  return async (request) => {
    if (faults.latencyMs) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    const path = new URL(request.url).pathname;
    const challenge = faults.scopeChallenges?.[`${request.method.toUpperCase()} ${path}`];
    if (challenge !== undefined && refusesScope(request, challenge, context.verifier)) {
      // RFC 6750 §3 with RFC 9728 §5.1, shaped like the API's own challenges.
      const description = 'injected fault: this request needs more scope';
      const header = `Bearer error="insufficient_scope", error_description="${description}", scope="${challenge.scope}", resource_metadata="${context.resourceMetadataUrl}"`;
      return Response.json(
        { error: 'insufficient_scope', error_description: description, scope: challenge.scope },
        { status: 403, headers: { 'www-authenticate': header } },
      );
    }
    const status = faults.serverErrorPaths?.[path];
    if (status !== undefined) {
      return Response.json({ error: 'server_error', error_description: 'injected fault' }, { status });
    }
    if (faults.htmlPaths?.includes(path)) {
      return new Response('<!doctype html><title>Sign in</title><p>Please sign in to continue.</p>', {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    }
    const retryAfter = faults.rateLimitPaths?.[path];
    if (retryAfter !== undefined) {
      return Response.json(
        { error: 'rate_limited', error_description: 'too many requests' },
        { status: 429, headers: { 'retry-after': String(retryAfter) } },
      );
    }
    return handler(request);
  };
}

function refusesScope(
  request: Request,
  challenge: { readonly scope: string; readonly evenWhenGranted?: boolean },
  verifier: AccessTokenVerifier,
): boolean {
  const token = /^Bearer +(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (token === undefined) return false;
  if (challenge.evenWhenGranted) return true;
  const granted = new Set(verifier.verifyAccessToken(token)?.scopes ?? []);
  return challenge.scope.split(' ').some((scope) => !granted.has(scope));
}
