/**
 * The executor: one tool call becomes one request to the school (with a token when the operation
 * declares security), and the answer becomes a typed outcome. Every failure is an outcome, never
 * a throw, so the server can always answer the agent.
 * @see SECURITY.md ERR-02, ERR-03, LOG-01
 */
import type { Dispatcher } from 'undici';
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';
import { createLogger, type Logger } from '../log.js';
import type { Operation } from '../openapi/index.js';
import type { AccessTokenSource } from './access-token-source.js';
import { buildRequest, DEFAULT_MAX_UPLOAD_BYTES, parseApiBase, type PlannedRequest } from './build-request.js';
import {
  toResponseOutcome,
  type CallSummary,
  type ExecutionOutcome,
  type ResponseOutcome,
} from './execution-outcome.js';
import { createHttpClient, type HttpLimits, type HttpResponse } from './http-client.js';
import { parseRetryAfter } from '../network/index.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { sendWithRetries, systemClock, type RetryClock } from './send.js';
import { bearerChallenge } from './www-authenticate.js';

interface ExecutorLimits extends HttpLimits {
  /** Cap on the decoded bytes of the files of one call. */
  readonly maxUploadBytes: number;
}

export interface ExecutorOptions {
  /** The school's API origin with an optional path prefix; OpenAPI `servers` never override it. */
  readonly apiBaseUrl: string;
  readonly tokens: AccessTokenSource;
  readonly logger?: Logger;
  readonly limits?: Partial<ExecutorLimits>;
  readonly retryPolicy?: Partial<RetryPolicy>;
  readonly dispatcher?: Dispatcher;
  readonly clock?: RetryClock;
}

interface ExecuteOptions {
  /** The MCP request's cancellation: aborts the token wait, the request and any retry wait. */
  readonly signal?: AbortSignal;
}

export interface Executor {
  execute(
    operation: Operation,
    args: Readonly<Record<string, unknown>> | undefined,
    options?: ExecuteOptions,
  ): Promise<ExecutionOutcome>;
  close(): Promise<void>;
}

export function createExecutor(options: ExecutorOptions): Executor {
  const { origin } = parseApiBase(options.apiBaseUrl);
  const logger = (options.logger ?? createLogger()).child('executor');
  const client = createHttpClient({
    apiOrigin: origin,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    logger,
  });
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
  const clock = options.clock ?? systemClock;
  const maxUploadBytes = options.limits?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

  async function execute(
    operation: Operation,
    args: Readonly<Record<string, unknown>> | undefined,
    { signal }: ExecuteOptions = {},
  ): Promise<ExecutionOutcome> {
    const call: CallSummary = {
      toolName: operation.toolName,
      method: operation.method.toUpperCase(),
      pathTemplate: operation.pathTemplate,
    };
    const withSignal = signal === undefined ? {} : { signal };
    const send = (planned: PlannedRequest) =>
      sendWithRetries(client, planned, { policy, clock, logger, ...withSignal });
    try {
      const planned = buildRequest(operation, args ?? {}, options.apiBaseUrl, { maxUploadBytes });
      // The school serves token-less requests as anonymous and never challenges them, so whether
      // to send a token is decided from the document alone.
      if (operation.scopeAlternatives.length === 0) return interpret(call, operation, await send(planned));

      const { scopeAlternatives, requiredScopes } = operation;
      let token = await fromTokenSource(
        () => options.tokens.accessToken({ scopeAlternatives, requiredScopes, ...withSignal }),
        signal,
      );
      let response = await send(withBearer(planned, token));
      if (isTokenRejection(response)) {
        // ERR-02: the resource server refuses an invalid token before processing the request, so
        // one retry after a refresh is safe even for POST and PATCH: nothing was done the first time.
        logger.info('token rejected; refreshing once', { tool: call.toolName });
        const rejected = token;
        token = await fromTokenSource(() => options.tokens.refreshAfterRejection(rejected, signal), signal);
        response = await send(withBearer(planned, token));
        if (response.status === 401) return { kind: 'error', call, error: rejectedAgain(response) };
      }
      return interpret(call, operation, response);
    } catch (error) {
      return { kind: 'error', call, error: asExecutorError(error, signal) };
    }
  }

  async function fromTokenSource(obtain: () => Promise<string>, signal: AbortSignal | undefined): Promise<string> {
    let token: string;
    try {
      token = await obtain();
    } catch (error) {
      if (signal?.aborted === true) throw cancelled(error);
      if (isSchoolMcpError(error)) throw error;
      throw new SchoolMcpError('API_SIGN_IN_FAILED', 'Signing in to the school failed.', {
        cause: error,
        hint: 'Sign in again.',
      });
    }
    logger.redact(token, 'rotating');
    return token;
  }

  function interpret(call: CallSummary, operation: Operation, response: HttpResponse): ExecutionOutcome {
    const challenge = bearerChallenge(response.headers['www-authenticate']);
    const outcome: ResponseOutcome = toResponseOutcome(call, response, {
      retryAfterMs: parseRetryAfter(response.headers['retry-after'], clock.now()),
      challenge,
    });
    if (response.status === 403 && challenge?.error === 'insufficient_scope') {
      const fromChallenge = challenge.scope.length > 0;
      logger.info('insufficient scope', { tool: call.toolName, scope: challenge.scope.join(' ') });
      return {
        kind: 'insufficient_scope',
        call,
        requiredScopes: fromChallenge ? challenge.scope : operation.requiredScopes,
        scopeSource: fromChallenge ? 'challenge' : 'operation',
        challenge,
        response: outcome,
      };
    }
    return outcome;
  }

  return { execute, close: () => client.close() };
}

function withBearer(planned: PlannedRequest, token: string): PlannedRequest {
  return { ...planned, headers: { ...planned.headers, authorization: `Bearer ${token}` } };
}

/**
 * A 401 answering a request that carried a token: `invalid_token`, or no error code at all (the
 * token was sent, so "no credentials" can only mean they were not recognised). Other codes such
 * as `invalid_request` are the request's fault and are not cured by a refresh.
 */
function isTokenRejection(response: HttpResponse): boolean {
  if (response.status !== 401) return false;
  const error = bearerChallenge(response.headers['www-authenticate'])?.error;
  return error === undefined || error === 'invalid_token';
}

function rejectedAgain(response: HttpResponse): SchoolMcpError {
  const description = bearerChallenge(response.headers['www-authenticate'])?.errorDescription;
  const said = description === undefined ? '' : ` (${description.slice(0, 200)})`;
  return new SchoolMcpError('API_UNAUTHORIZED', `The school rejected the sign-in even after a refresh${said}.`, {
    hint: 'Sign in again, then call the tool again.',
  });
}

function cancelled(cause: unknown): SchoolMcpError {
  return new SchoolMcpError('API_CANCELLED', 'The call was cancelled before the request was sent.', { cause });
}

function asExecutorError(error: unknown, signal: AbortSignal | undefined): SchoolMcpError {
  if (isSchoolMcpError(error)) return error;
  if (signal?.aborted === true) return cancelled(error);
  return new SchoolMcpError('API_NETWORK_ERROR', 'The request to the school failed unexpectedly.', {
    cause: error,
    hint: 'Try again; if it keeps failing, report it.',
  });
}
