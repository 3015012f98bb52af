/**
 * The hosted HTTP server: the authorization server of MCP clients, its consent pages and school
 * callback, the protected resource metadata, and `/mcp` behind the bearer check. It listens on
 * plain HTTP; in production a TLS-terminating proxy sits in front of it at the public URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readingUnreadableAsAbsent, type GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';
import { BODY_CAPS, declaredOverCap } from '../network/index.js';
import { applySocketLimits, checkHost, checkOrigin, nodeServerOptions, type HttpSocketLimits } from '../transports/index.js';
import { checkAccess, type HostedCaller } from './access-check.js';
import { createCallerAccess, type CallerAccount, type CallerTokens } from './caller-access.js';
import { storeAdapterClass } from './store-adapter.js';
import { createClientMetadataDocuments, type ClientMetadataDocumentOptions } from './client-metadata-documents.js';
import { createHostedProvider, MCP_SCOPE } from './authorization-server.js';
import { handleConsentFinish, handleConsentPage, handleSchoolCallback, handleStepUp, type InteractionContext } from './interaction-routes.js';
import { STEP_UP_PREFIX } from './step-up-record.js';
import { loadProviderSecrets } from './provider-secrets.js';
import { HOSTED_SOCKET_LIMITS } from './hosted-limits.js';
import { publicHostAllowList, publicOriginAllowList } from './public-host.js';
import { parsePublicUrl, type PublicUrl } from './public-url.js';
import { buildBearerChallenge, buildResourceMetadata, resourceMetadataPaths } from './resource-metadata.js';
import { createSchoolSignIn, SCHOOL_GRANTS, type SchoolGrant, type SchoolIntegration } from './school-sign-in.js';
import { createDrain, type Drain, type DrainOutcome } from './drain.js';
import { healthAnswer, probeKindOf, readinessOf, readyAnswer, type ProbeAnswer } from './health-check.js';
import { answerProviderStoreOutagesWith503 } from './provider-outage.js';
import { answerStoreOutage, isStoreUnavailable, watchStoreOutages } from './store-outage.js';
import { createStoreReadiness } from './store-readiness.js';

/** Serves one `/mcp` request of a caller whose token passed. */
type McpHandler = (req: IncomingMessage, res: ServerResponse, caller: HostedCaller, access: { readonly tokens: CallerTokens; readonly account: CallerAccount }) => Promise<void>;

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

const CONSENT_PATH = /^\/consent\/([A-Za-z0-9_-]{1,100})(\/finish)?$/;
const STEP_UP_PATH = /^\/step-up\/([A-Za-z0-9_-]{1,100})$/;

export async function startHostedServer(options: HostedServerOptions): Promise<HostedServer> {
  const { logger } = options;
  const log = logger.child('hosted');
  // Every store call of every route goes through the watcher, so an outage is logged once, wherever it is met.
  const { store } = watchStoreOutages(options.store, log);
  // Listen first: without a public URL, the address bound is the public URL, known only now.
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'temporarily_unavailable' }));
  };
  const limits = { ...HOSTED_SOCKET_LIMITS, ...options.limits };
  const server = createServer(nodeServerOptions(limits), (req, res) => {
    // An event stream (a GET asking for text/event-stream) never ends by itself: a drain ends it.
    if (!drain.track(req, res, req.method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream'))) return refuseWhileDraining(res);
    handle(req, res).catch((error: unknown) => {
      if (isStoreUnavailable(error)) return answerStoreOutage(res);
      log.warn('a hosted request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'server_error' }));
    });
  });
  const drain = createDrain(server);
  applySocketLimits(server, limits, () => log.warn('refusing connections: too many are open', { maxConnections: limits.maxConnections }));
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
    handle = await hostedRoutes({ ...options, store }, publicUrl, address.port, log, drain);
    return {
      listenUrl,
      publicUrl,
      drain(graceMs) {
        const drained = drain.drain(graceMs);
        // Said once the listener is closed, so whoever reads it finds new connections refused.
        log.info('draining: /readyz answers 503, new connections are refused, requests in flight finish', { graceSeconds: graceMs / 1000 });
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

async function hostedRoutes(options: HostedServerOptions, publicUrl: PublicUrl, listenPort: number, log: Logger, drain: Drain): Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> {
  // The authorization server's secrets must open, or the start stops naming them (ST-11); any other
  // record sealed with a key no longer given reads as absent, so its person signs in again (ST-10).
  const secrets = await loadProviderSecrets(options.store);
  const store = readingUnreadableAsAbsent(options.store, log);
  const storeAnswers = createStoreReadiness({ ping: () => store.ping() });
  const allowedHosts = publicHostAllowList({ publicUrl, listenPort, extraHosts: options.allowedHosts ?? [] });
  const allowedOrigins = publicOriginAllowList(publicUrl, options.allowedOrigins ?? []);
  const school = typeof options.school === 'function' ? await options.school(publicUrl) : options.school;
  const adapter = storeAdapterClass(store, undefined, createClientMetadataDocuments(store, publicUrl, options.clientMetadataDocuments));
  const schoolSignIn = createSchoolSignIn(school, store, log);
  const provider = createHostedProvider({
    publicUrl,
    adapter,
    secrets,
    ...(options.accessTokenTtl === undefined ? {} : { accessTokenTtl: options.accessTokenTtl }),
    async onGrantEnded(accountId) {
      const grant = (await store.take(SCHOOL_GRANTS, accountId)) as SchoolGrant | undefined;
      if (grant !== undefined) await schoolSignIn.revoke(grant).catch((error: unknown) => log.warn('the school did not confirm a revocation', { error: String(error) }));
    },
  });
  const access = createCallerAccess({
    store,
    signIn: schoolSignIn,
    schoolIssuer: school.schoolUrl.href.replace(/\/+$/, ''),
    stepUpUrl: (id) => `${publicUrl.base}${STEP_UP_PREFIX}${id}`,
    async endMcpGrant(caller) {
      // Every token of this connection goes with its grant (RFC 7009 §2.1 spirit: sign-out ends them all).
      await new adapter('Grant').revokeByGrantId!(caller.grantId);
      await new adapter('Grant').destroy(caller.grantId);
    },
  });
  provider.on('server_error', (_ctx: unknown, error: Error) => {
    // A store outage is logged once by the store's watcher, not once per request.
    if (!isStoreUnavailable(error)) log.warn('authorization server error', { error: error.message });
  });
  answerProviderStoreOutagesWith503(provider);
  const interactions: InteractionContext = {
    provider,
    store,
    publicUrl,
    schoolSignIn,
    schoolUrl: school.schoolUrl,
    formKey: secrets.cookieKeys[0]!,
    logger: log,
  };
  const oauth = provider.callback();
  const basePath = new URL(publicUrl.base).pathname.replace(/\/+$/, '');
  const metadataPaths = new Set(resourceMetadataPaths(publicUrl));
  const metadata = JSON.stringify(buildResourceMetadata(publicUrl, [MCP_SCOPE]));

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Before the Host check: a load balancer asks by IP address.
    const probe = probeKindOf(req.url);
    if (probe === 'health') return sendProbe(res, healthAnswer(req.method));
    if (probe === 'ready') return sendProbe(res, readyAnswer(req.method, readinessOf({ draining: drain.draining, storeAnswers: drain.draining || (await storeAnswers()) })));
    const host = checkHost(req.headersDistinct['host'], allowedHosts);
    if (!host.allowed) {
      // RFC 9110 §15.5.20: 421 for a request this server is not configured to answer for.
      log.debug('refused a request', { reason: host.reason });
      const single = req.headersDistinct['host']?.length === 1;
      return refuse(res, single ? 421 : 400, single ? 'misdirected_request' : 'invalid_request', `this server answers only for ${new URL(publicUrl.base).host}`);
    }
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const cap = path === `${basePath}/mcp` ? BODY_CAPS.mcpRequest : CONSENT_PATH.test(path.slice(basePath.length)) || STEP_UP_PATH.test(path.slice(basePath.length)) ? BODY_CAPS.consentForm : BODY_CAPS.oauthRequest;
    if (declaredOverCap(req.headers['content-length'], cap)) return refuse(res, 413, 'invalid_request', `the request body is larger than ${cap} bytes`);
    if (metadataPaths.has(path) && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(metadata);
      return;
    }
    if (path === `${basePath}/mcp`) {
      const origin = checkOrigin(req.headersDistinct['origin'], allowedOrigins);
      if (!origin.allowed) {
        log.warn('refused a request', { reason: origin.reason });
        return refuse(res, 403, 'forbidden', 'a browser request to /mcp must come from this server\'s own origin');
      }
      const verdict = await checkAccess(provider, publicUrl, req.headers.authorization);
      if (!verdict.ok) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': buildBearerChallenge(publicUrl, verdict.refusal) });
        res.end(JSON.stringify({ error: verdict.refusal === 'missing' ? 'unauthorized' : 'invalid_token' }));
        return;
      }
      return options.mcp(req, res, verdict.caller, { tokens: access.tokensFor(verdict.caller), account: access.accountFor(verdict.caller) });
    }
    const consent = CONSENT_PATH.exec(path.slice(basePath.length));
    if (consent !== null && path.startsWith(basePath)) {
      if (consent[2] !== undefined) return req.method === 'GET' ? handleConsentFinish(interactions, req, res, consent[1]!) : methodNotAllowed(res);
      return req.method === 'GET' || req.method === 'POST' ? handleConsentPage(interactions, req, res, consent[1]!) : methodNotAllowed(res);
    }
    const stepUp = STEP_UP_PATH.exec(path.slice(basePath.length));
    if (stepUp !== null && path.startsWith(basePath)) return req.method === 'GET' || req.method === 'POST' ? handleStepUp(interactions, req, res, stepUp[1]!) : methodNotAllowed(res);
    if (path === new URL(publicUrl.schoolCallback).pathname) return req.method === 'GET' ? handleSchoolCallback(interactions, req, res) : methodNotAllowed(res);
    // RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path; the
    // engine publishes the same document under OpenID Connect's name only.
    if (path === `/.well-known/oauth-authorization-server${basePath}`) req.url = `${basePath}/.well-known/openid-configuration`;
    // Everything else is the authorization server's: metadata, registration, authorize, token, revoke.
    if (basePath !== '' && req.url!.startsWith(basePath)) req.url = req.url!.slice(basePath.length) || '/';
    return oauth(req, res);
  };

  return route;
}

/** A refusal before any route ran, in the OAuth error shape (RFC 6749 §5.2) every client here reads. */
function refuse(res: ServerResponse, status: 400 | 403 | 413 | 421, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  // The body of a refused upload is not read; closing the connection discards it.
  if (status === 413) headers['connection'] = 'close';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** A new event stream on a kept-alive connection of a draining instance: the client reconnects, through the balancer, elsewhere. */
function refuseWhileDraining(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': '1', connection: 'close' });
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'this instance is stopping; retry' }));
}

function sendProbe(res: ServerResponse, answer: ProbeAnswer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function methodNotAllowed(res: ServerResponse): void {
  res.writeHead(405, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'method_not_allowed' }));
}
