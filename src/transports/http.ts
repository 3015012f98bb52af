/**
 * MCP over Streamable HTTP, for hosts that connect to a URL instead of spawning a process.
 *
 * Every request passes, in this order and before any MCP processing: the `Host` allow-list and
 * the `Origin` check (403: DNS rebinding), the method (405: no OPTIONS, so no CORS preflight ever
 * succeeds), the bearer secret (401), the path (404) and the body size (413). No response carries
 * a CORS header or a redirect. What `Authorization` carries is compared with the local secret and
 * goes nowhere else; the school only ever sees the bridge's own token.
 * Slow or idle sockets are cut and open connections capped (HTTP-10).
 * @see SECURITY.md HTTP-01..HTTP-11, LB-08
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { HttpConfig } from '../config/index.js';
import { SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import type { SchoolServerFactory } from '../server/index.js';
import { bearerTokenOf } from '../network/index.js';
import { generateSecret, secretFingerprint, secretMatches } from './bearer-secret.js';
import { bindPolicy } from './http-bind-policy.js';
import { checkHost, checkOrigin, hostAllowList, isWildcardAddress, ownLoopbackOrigins } from './http-guards.js';
import { buildRefusal, sendRefusal, SERVED_METHODS, type RefusalStatus } from './http-refusal.js';
import {
  applySocketLimits,
  DEFAULT_HTTP_SOCKET_LIMITS,
  MAX_REQUEST_BODY_BYTES,
  MCP_PATH,
  nodeServerOptions,
  type HttpSocketLimits,
} from './http-limits.js';
import { createMcpEndpoint } from './mcp-endpoint.js';

const MAX_KEPT_SESSIONS = 64;

export interface HttpServeOptions {
  /** Shows the secret made at launch, once; stderr by default. Never stdout. */
  readonly announce?: (line: string) => void;
  /** Socket timeouts and the connection cap; `DEFAULT_HTTP_SOCKET_LIMITS` for what is left out. */
  readonly limits?: Partial<HttpSocketLimits>;
}

export interface HttpHandle {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
  /** Settles once the listener is closed. */
  readonly closed: Promise<void>;
  /** Stops accepting, ends every open stream and session, and closes the listener. */
  close(): Promise<void>;
}

export async function startHttpEndpoint(
  factory: SchoolServerFactory,
  config: HttpConfig,
  logger: Logger,
  options: HttpServeOptions = {},
): Promise<HttpHandle> {
  const log = logger.child('http');
  const policy = bindPolicy(config);
  const secret = policy.chosenSecret ?? generateSecret();
  logger.redact(secret);
  const caller = secretFingerprint(secret);
  const endpoint = createMcpEndpoint({
    factory,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    maxSessions: MAX_KEPT_SESSIONS,
    onerror: (error) => log.debug('MCP request failed', { error: error.message }),
  });
  const toNode = toNodeHandler(
    { fetch: (request: Request) => endpoint.fetch(request, caller) },
    {
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
      onerror: (error) => log.warn('MCP request could not be served', { error: error.message }),
    },
  );

  let allowedHosts: ReadonlySet<string> = new Set();
  let allowedOrigins: ReadonlySet<string> = policy.allowedOrigins;
  const refuse = (res: ServerResponse, status: RefusalStatus, detail?: string) => {
    if (status === 403) log.warn('refused a request', { status, reason: detail });
    else log.debug('refused a request', { status, reason: detail });
    sendRefusal(res, buildRefusal(status, status === 403 ? undefined : detail));
  };

  const limits = { ...DEFAULT_HTTP_SOCKET_LIMITS, ...options.limits };
  const server = createServer(nodeServerOptions(limits), (req: IncomingMessage, res: ServerResponse) => {
    const host = checkHost(req.headersDistinct['host'], allowedHosts);
    if (!host.allowed) return refuse(res, 403, host.reason);
    const origin = checkOrigin(req.headersDistinct['origin'], allowedOrigins);
    if (!origin.allowed) return refuse(res, 403, origin.reason);
    if (!(SERVED_METHODS as readonly string[]).includes(req.method ?? '')) return refuse(res, 405);
    if (!secretMatches(bearerTokenOf(req.headersDistinct['authorization'], 'visible-ascii'), secret))
      return refuse(res, 401);
    if (pathOf(req.url) !== MCP_PATH) return refuse(res, 404);
    const declaredLength = Number(req.headers['content-length'] ?? 0);
    if (declaredLength > MAX_REQUEST_BODY_BYTES) return refuse(res, 413);
    void toNode(req, res);
  });

  applySocketLimits(server, limits, () =>
    log.warn('refusing connections: too many are open', { maxConnections: limits.maxConnections }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(policy.port, policy.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await endpoint.close();
    throw new SchoolMcpError(
      'HTTP_LISTEN_FAILED',
      `cannot listen on ${policy.host}:${policy.port}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
        hint: 'choose another --port, or leave it out to take any free port',
      },
    );
  }
  const address = server.address() as AddressInfo;
  allowedHosts = hostAllowList({ bindHost: policy.host, port: address.port, extraHosts: policy.extraHosts });
  allowedOrigins = new Set([...policy.allowedOrigins, ...ownLoopbackOrigins(address.port)]);
  const url = `http://${urlHost(policy.host, address)}:${address.port}${MCP_PATH}`;

  log.info('serving over Streamable HTTP', { url, remote: policy.remote, origins: [...policy.allowedOrigins] });
  if (policy.remote) {
    log.warn(
      'the endpoint is reachable from other machines over plain HTTP: whoever has the secret acts as the signed-in school user',
    );
  }
  if (policy.chosenSecret === undefined) {
    const announce = options.announce ?? ((line: string) => void process.stderr.write(`${line}\n`));
    announce(`school-mcp: HTTP secret for this launch: ${secret}`);
    announce(
      `school-mcp: clients send it as the header "Authorization: Bearer <secret>"; it changes on every launch unless you set --http-secret-file or SCHOOL_MCP_HTTP_SECRET`,
    );
  }

  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await endpoint.close();
      // Open SSE streams and idle keep-alive sockets would otherwise hold `close` open.
      server.closeAllConnections();
      await stopped;
      finish();
    })();
    return closing;
  };
  return { url, closed, close };
}

/** The request target's path, compared as sent: no resolution of `..` or of `//authority`. */
function pathOf(target: string | undefined): string | undefined {
  return target?.split('?', 1)[0];
}

/** The name to print: the loopback literal actually bound, or 127.0.0.1 for every-interface binds. */
function urlHost(bindHost: string, address: AddressInfo): string {
  if (isWildcardAddress(bindHost)) return '127.0.0.1';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
