/**
 * The hosted HTTP server: the authorization server of MCP clients, its consent pages and school
 * callback, the protected resource metadata, and `/mcp` behind the bearer check. It listens on
 * plain HTTP; in production a TLS-terminating proxy sits in front of it at the public URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditLog } from '../audit/index.js';
import type { GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';
import { applySocketLimits, nodeServerOptions, type HttpSocketLimits } from '../transports/index.js';
import type { ClientMetadataDocumentOptions } from './client-metadata-documents.js';
import { clientAddressOf } from './forwarded-request.js';
import type { RegistrationLimitOptions } from './registration-limits.js';
import { handleConsentFinish, handleConsentPage } from './consent-routes.js';
import { handleSchoolCallback } from './school-callback-route.js';
import { handleStepUp } from './step-up-route.js';
import { HOSTED_SOCKET_LIMITS } from './hosted-limits.js';
import { publicHostAllowList, publicOriginAllowList } from './public-host.js';
import { parsePublicUrl, type PublicUrl } from './public-url.js';
import type { SchoolIntegration } from './school-sign-in.js';
import { createDrain, trackedByDrain, type Drain, type DrainOutcome } from './drain.js';
import { watchStoreOutages } from './store-outage.js';
import { startHostedServices } from './hosted-services.js';
import { hostedRouter } from './hosted-route.js';
import { answerByRoute, composeSteps, type Exchange, type HostedExchange, type RouteSteps } from './request-steps.js';
import { answerFailedRequests } from './failed-request.js';
import { answerProbes, pinForwardingHeaders, refuseOtherHosts, refuseOversizedBodies } from './before-route-checks.js';
import { refuseOtherOrigins, serveTokenHolders, type McpHandler } from './mcp-route.js';
import { cacheLikeMetadata, serveResourceMetadata } from './public-document-routes.js';
import { limitRegistrations, passToEngine, refuseOutsideMount } from './engine-route.js';
import { answerMethodNotAllowed } from './request-refusal.js';

export interface HostedServerOptions {
  /** Where MCP clients reach the server; the address it listens on when absent (tests, the demo). */
  readonly publicUrl?: PublicUrl;
  /** The school integration, given the public URL, whose callback is registered at the school. */
  readonly school: SchoolIntegration | ((publicUrl: PublicUrl) => SchoolIntegration | Promise<SchoolIntegration>);
  readonly store: GrantStore;
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly mcp: McpHandler;
  readonly accessTokenTtl?: number;
  /** Limits of the fetch of a URL client_id's metadata document (tests shorten the wait). */
  readonly clientMetadataDocuments?: ClientMetadataDocumentOptions;
  /** `Host` names served besides the public URL's, for a proxy that rewrites `Host` (HOST-23). */
  readonly allowedHosts?: readonly string[];
  /** Browser origins allowed to call `/mcp` besides the public URL's own (HOST-24). */
  readonly allowedOrigins?: readonly string[];
  /** Tests set small figures; the defaults are a public endpoint's (HOST-22). */
  readonly limits?: Partial<HttpSocketLimits>;
  /** Who did what: sign-ins, consents, step-ups, sign-outs, refusals (`--audit-log`); none by default. */
  readonly audit?: AuditLog;
  /** `--trust-proxy`: the proxy in front appends the client's address to `X-Forwarded-For` (HOST-41). */
  readonly trustProxy?: boolean;
  /** `--registration-limit`, `--registration-cap`, `--registration-expiry` (HOST-43, HOST-44). */
  readonly registration?: Partial<RegistrationLimitOptions>;
}

export interface HostedServer {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  readonly listenUrl: string;
  readonly publicUrl: PublicUrl;
  /**
   * Stops taking work and lets the requests in flight finish for at most `graceMs` (SIGTERM);
   * `/readyz` says draining from the first moment.
   */
  drain(graceMs: number): Promise<DrainOutcome>;
  /** `drain(0)`: ends everything at once. */
  close(): Promise<void>;
}

export async function startHostedServer(options: HostedServerOptions): Promise<HostedServer> {
  const { logger } = options;
  const log = logger.child('hosted');
  // Every store call of every route goes through the watcher, so an outage is logged once, wherever it is met.
  const { store } = watchStoreOutages(options.store, log);
  // Listen first: without a public URL, the address bound is the public URL, known only now.
  let answerRoutes = async ({ res }: Exchange): Promise<void> => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'temporarily_unavailable' }));
  };
  const limits = { ...HOSTED_SOCKET_LIMITS, ...options.limits };
  const server = createServer(nodeServerOptions(limits), (req, res) => void serve({ req, res }));
  const drain = createDrain(server);
  // Around every request, routes ready or not: counted for a drain, and a failure answered.
  const serve = composeSteps<Exchange>([
    trackedByDrain(drain),
    answerFailedRequests(log),
    (exchange) => answerRoutes(exchange),
  ]);
  applySocketLimits(server, limits, () =>
    log.warn('refusing connections: too many are open', { maxConnections: limits.maxConnections }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const listenUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  const close = async () => {
    await drain.drain(0);
  };
  try {
    const publicUrl = options.publicUrl ?? parsedListenUrl(listenUrl);
    answerRoutes = await hostedRoutes({ ...options, store }, publicUrl, address.port, log, drain);
    return {
      listenUrl,
      publicUrl,
      drain(graceMs) {
        const drained = drain.drain(graceMs);
        // Said once the listener is closed, so whoever reads it finds new connections refused.
        log.info('draining: /readyz answers 503, new connections are refused, requests in flight finish', {
          graceSeconds: graceMs / 1000,
        });
        return drained;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function parsedListenUrl(listenUrl: string): PublicUrl {
  const parsed = parsePublicUrl(listenUrl);
  if (!parsed.ok) throw new RangeError(parsed.reason);
  return parsed.url;
}

async function hostedRoutes(
  options: HostedServerOptions,
  publicUrl: PublicUrl,
  listenPort: number,
  log: Logger,
  drain: Drain,
): Promise<(exchange: Exchange) => Promise<void>> {
  const { provider, audit, interactions, registrations, storeAnswers, servicesOf } = await startHostedServices(
    options,
    publicUrl,
    log,
  );
  const allowedHosts = publicHostAllowList({ publicUrl, listenPort, extraHosts: options.allowedHosts ?? [] });
  const allowedOrigins = publicOriginAllowList(publicUrl, options.allowedOrigins ?? []);
  const toEngine = passToEngine(provider.callback(), publicUrl);
  // Which request goes where (`hosted-route.ts` decides), and what refuses it first.
  const routes: RouteSteps = {
    'resource-metadata': [serveResourceMetadata(publicUrl)],
    mcp: [
      refuseOtherOrigins(allowedOrigins, log, audit),
      serveTokenHolders({ provider, publicUrl, audit, mcp: options.mcp, servicesOf }),
    ],
    'consent-page': [({ req, res, route }) => handleConsentPage(interactions, req, res, route.uid)],
    'consent-finish': [({ req, res, route }) => handleConsentFinish(interactions, req, res, route.uid)],
    'step-up': [({ req, res, route }) => handleStepUp(interactions, req, res, route.id)],
    'school-callback': [({ req, res }) => handleSchoolCallback(interactions, req, res)],
    'method-not-allowed': [async ({ res }) => answerMethodNotAllowed(res)],
    'engine-document': [cacheLikeMetadata, toEngine],
    registration: [limitRegistrations(registrations, log), toEngine],
    engine: [toEngine],
    'not-found': [refuseOutsideMount(publicUrl)],
  };
  // What every request passes first, in this order.
  const answer = composeSteps<HostedExchange>([
    answerProbes(drain, storeAnswers), // before the Host check: a load balancer asks by IP address
    refuseOtherHosts(allowedHosts, publicUrl, log),
    pinForwardingHeaders(publicUrl),
    refuseOversizedBodies,
    answerByRoute(routes),
  ]);
  const routeOf = hostedRouter(publicUrl);
  const trustProxy = options.trustProxy === true;
  return ({ req, res }) =>
    answer({
      req,
      res,
      route: routeOf(req.method, req.url ?? '/'),
      clientAddress: clientAddressOf(req.socket.remoteAddress, req.headersDistinct['x-forwarded-for'], trustProxy),
    });
}
