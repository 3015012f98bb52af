/**
 * One HTTP exchange with the school over undici 7: timeouts on every phase and an overall
 * deadline, cancellation from the MCP request, no redirect ever followed, the bearer token only
 * for the API origin, and a body cap after decompression.
 * @see SECURITY.md API-01, API-06, NET-01, NET-02, NET-03
 */
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.js';
import { BODY_CAPS, loadUndici } from '../network/index.js';
import { SchoolMcpError } from '../errors.js';
import type { PlannedRequest } from './build-request.js';
import {
  declaredLengthTooLarge,
  discardBody,
  planBodyRead,
  readResponseBody,
  tooLargeError,
  type BodyLimits,
} from './response-body.js';
import { toTransportError } from './transport-failure.js';

export interface HttpLimits extends BodyLimits {
  readonly connectTimeoutMs: number;
  /** From the request being sent to the last response header. */
  readonly headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  readonly bodyTimeoutMs: number;
  /** The whole attempt, headers and body, so a server dripping one byte a second still ends. */
  readonly deadlineMs: number;
}

const DEFAULT_HTTP_LIMITS: HttpLimits = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  deadlineMs: 30_000,
  maxResponseBytes: BODY_CAPS.apiResponse,
  maxErrorBodyBytes: BODY_CAPS.apiErrorBody,
};

type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface HttpResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly contentType: string | undefined;
  /** The decoded body, at most the cap's worth. */
  readonly bytes: Buffer;
  readonly truncated: boolean;
}

export interface HttpClient {
  send(request: PlannedRequest, signal?: AbortSignal): Promise<HttpResponse>;
  /** Closes the connection pool if this client created it. */
  close(): Promise<void>;
}

export interface HttpClientOptions {
  /** The only origin a request carrying `Authorization` may go to. */
  readonly apiOrigin: string;
  readonly limits?: Partial<HttpLimits>;
  /** An undici dispatcher to use instead of a pool of this client's own (tests, proxies). */
  readonly dispatcher?: Dispatcher;
  readonly logger?: Logger;
}

/**
 * API-01: the last line of defence, independent of how the URL was built. A request carrying
 * credentials to any other origin is refused before a socket is opened.
 */
function assertCredentialOrigin(plannedRequest: PlannedRequest, apiOrigin: string): void {
  const carriesCredentials = Object.keys(plannedRequest.headers).some((name) => {
    const lower = name.toLowerCase();
    return lower === 'authorization' || lower === 'proxy-authorization' || lower === 'cookie';
  });
  if (!carriesCredentials) return;
  const origin = URL.canParse(plannedRequest.url) ? new URL(plannedRequest.url).origin : undefined;
  if (origin !== apiOrigin) {
    throw new SchoolMcpError(
      'API_TOKEN_ORIGIN_REFUSED',
      "A request with credentials was aimed at another origin than the school's API and was not sent.",
      {
        hint: 'Report this as a bug in school-mcp.',
      },
    );
  }
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const logger = options.logger;
  // undici 7, loaded on the first request (the network part's `http-stack.ts` says why).
  let ownDispatcher: Dispatcher | undefined;
  const loadStack = async () => {
    const module = await loadUndici();
    const dispatcher =
      options.dispatcher ??
      (ownDispatcher ??= new module.Agent({
        connect: { timeout: limits.connectTimeoutMs },
        headersTimeout: limits.headersTimeoutMs,
        bodyTimeout: limits.bodyTimeoutMs,
      }));
    return { request: module.request, dispatcher };
  };

  async function send(plannedRequest: PlannedRequest, signal?: AbortSignal): Promise<HttpResponse> {
    assertCredentialOrigin(plannedRequest, options.apiOrigin);
    // One controller per attempt, which the deadline and the caller's cancellation both abort: an
    // `AbortSignal.any` of the two made three signals and their bookkeeping on every call, which
    // outlived the call until a full GC and made up a fifth of what calls left in the old space.
    const attempt = new AbortController();
    let deadlineExceeded = false;
    const timer = setTimeout(() => {
      deadlineExceeded = true;
      attempt.abort();
    }, limits.deadlineMs);
    const cancel = () => attempt.abort(signal?.reason);
    if (signal?.aborted) cancel();
    else signal?.addEventListener('abort', cancel, { once: true });
    try {
      const { request, dispatcher } = await loadStack();
      const response = await request(plannedRequest.url, {
        dispatcher,
        method: plannedRequest.method as Dispatcher.HttpMethod,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...plannedRequest.headers },
        body: plannedRequest.body ?? null,
        signal: attempt.signal,
        headersTimeout: limits.headersTimeoutMs,
        bodyTimeout: limits.bodyTimeoutMs,
      });
      const status = response.statusCode;
      const headers = response.headers as ResponseHeaders;
      logger?.debug('api response', {
        method: plannedRequest.method,
        path: new URL(plannedRequest.url).pathname,
        status,
      });
      if (isRedirect(status)) {
        discardBody(response.body);
        throw redirectRefused(status, headerText(headers['location']), plannedRequest.url);
      }
      const contentType = headerText(headers['content-type']);
      const plan = planBodyRead(status, contentType, limits);
      if (declaredLengthTooLarge(status, headerText(headers['content-length']), plan)) {
        discardBody(response.body);
        throw tooLargeError(plan.maxBytes);
      }
      const body = await readResponseBody(response.body, headerText(headers['content-encoding']), plan);
      return { status, headers, contentType, bytes: body.bytes, truncated: body.truncated };
    } catch (error) {
      throw toTransportError(error, {
        cancelled: signal?.aborted === true,
        deadlineExceeded,
        deadlineMs: limits.deadlineMs,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  return {
    send,
    close: async () => {
      await ownDispatcher?.close();
    },
  };
}

/** 304 is a cache answer, not a redirect; every other 3xx would move the request elsewhere. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** API-06: the redirect is reported, with its target's origin and path only, and never followed. */
function redirectRefused(status: number, location: string | undefined, requestUrl: string) {
  const target =
    location !== undefined && URL.canParse(location, requestUrl) ? new URL(location, requestUrl) : undefined;
  const shown = target === undefined ? 'no valid Location' : `${target.origin}${target.pathname}`.slice(0, 200);
  return new SchoolMcpError(
    'API_REDIRECT_REFUSED',
    `The school answered HTTP ${status}, a redirect to ${shown}; redirects are not followed with the sign-in token.`,
    {
      hint: 'Check the school URL; the API should answer directly.',
    },
  );
}
