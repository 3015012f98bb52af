/**
 * The hosted HTTP server: the authorization server of MCP clients, its consent pages and school
 * callback, the protected resource metadata, and `/mcp` behind the bearer check. It listens on
 * plain HTTP; in production a TLS-terminating proxy sits in front of it at the public URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NO_AUDIT_LOG, type AuditLog } from '../audit/index.js';
import type { ConsentBroker } from '../consent/index.js';
import { readingUnreadableAsAbsent, takeRecord, type GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';
import { BODY_CAPS, declaredOverCap } from '../network/index.js';
import {
  applySocketLimits,
  checkHost,
  checkOrigin,
  nodeServerOptions,
  type HttpSocketLimits,
} from '../transports/index.js';
import { checkAccess, type HostedCaller } from './access-check.js';
import { createCallerAccess, type CallerAccount, type CallerTokens } from './caller-access.js';
import { storeAdapterClass } from './store-adapter.js';
import { createClientMetadataDocuments, type ClientMetadataDocumentOptions } from './client-metadata-documents.js';
import { createHostedProvider, HOSTED_PATHS, MCP_SCOPE } from './authorization-server.js';
import { clientAddressOf, pinnedForwardingHeaders } from './forwarded-request.js';
import { metadataCacheControl } from './metadata-cache.js';
import {
  createRegistrationLimits,
  DEFAULT_REGISTRATION_LIMITS,
  type RegistrationLimitOptions,
} from './registration-limits.js';
import {
  handleConsentFinish,
  handleConsentPage,
  handleSchoolCallback,
  handleStepUp,
  type InteractionContext,
} from './interaction-routes.js';
import { stepUpLink } from './step-up-record.js';
import { loadProviderSecrets } from './provider-secrets.js';
import { HOSTED_SOCKET_LIMITS } from './hosted-limits.js';
import { publicHostAllowList, publicOriginAllowList } from './public-host.js';
import { parsePublicUrl, type PublicUrl } from './public-url.js';
import { buildBearerChallenge, resourceMetadataDocuments } from './resource-metadata.js';
import { authorizationServerMetadataPaths, ENGINE_DISCOVERY_PATH, pathUnderMount } from './mount-path.js';
import { endGeneration } from './person-generation.js';
import { createSchoolSignIn, SCHOOL_GRANT_RECORD, type SchoolIntegration } from './school-sign-in.js';
import { createDrain, type Drain, type DrainOutcome } from './drain.js';
import { healthAnswer, probeKindOf, readinessOf, readyAnswer, type ProbeAnswer } from './health-check.js';
import { answerProviderStoreOutagesWith503 } from './provider-outage.js';
import { auditProviderEvents } from './audit-provider-events.js';
import { answerStoreOutage, isStoreUnavailable, watchStoreOutages } from './store-outage.js';
import { createStoreReadiness } from './store-readiness.js';

/** Serves one `/mcp` request of a caller whose token passed. */
type McpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  caller: HostedCaller,
  access: CallerServices,
) => Promise<void>;

/** What one caller's tools run with: that person's school grant, account and step-ups. */
interface CallerServices {
  readonly tokens: CallerTokens;
  readonly account: CallerAccount;
  readonly stepUps: ConsentBroker;
}

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
    if (!drain.track(req, res, req.method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream')))
      return refuseWhileDraining(res);
    handle(req, res).catch((error: unknown) => {
      if (isStoreUnavailable(error)) return answerStoreOutage(res);
      log.warn('a hosted request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'server_error' }));
    });
  });
  const drain = createDrain(server);
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
    handle = await hostedRoutes({ ...options, store }, publicUrl, address.port, log, drain);
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
): Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> {
  // The authorization server's secrets must open, or the start stops naming them (ST-11); any other
  // record sealed with a key no longer given reads as absent, so its person signs in again (ST-10).
  const secrets = await loadProviderSecrets(options.store);
  const store = readingUnreadableAsAbsent(options.store, log);
  const audit = options.audit ?? NO_AUDIT_LOG;
  const storeAnswers = createStoreReadiness({ ping: () => store.ping() });
  const allowedHosts = publicHostAllowList({ publicUrl, listenPort, extraHosts: options.allowedHosts ?? [] });
  const allowedOrigins = publicOriginAllowList(publicUrl, options.allowedOrigins ?? []);
  const school = typeof options.school === 'function' ? await options.school(publicUrl) : options.school;
  const registrationLimits = { ...DEFAULT_REGISTRATION_LIMITS, ...options.registration };
  const adapter = storeAdapterClass(
    store,
    undefined,
    createClientMetadataDocuments(store, publicUrl, options.clientMetadataDocuments),
    registrationLimits.unusedSeconds,
  );
  const registrations = createRegistrationLimits(store, registrationLimits);
  const schoolSignIn = createSchoolSignIn(school, store, log);
  const provider = createHostedProvider({
    publicUrl,
    adapter,
    secrets,
    ...(options.accessTokenTtl === undefined ? {} : { accessTokenTtl: options.accessTokenTtl }),
    async onGrantEnded(sub) {
      // As a sign-out: every client of this person signs in again (HOST-33).
      const grant = await takeRecord(store, SCHOOL_GRANT_RECORD, sub);
      await endGeneration(store, sub);
      if (grant !== undefined)
        await schoolSignIn
          .revoke(grant)
          .catch((error: unknown) => log.warn('the school did not confirm a revocation', { error: String(error) }));
    },
  });
  const access = createCallerAccess({
    store,
    audit,
    signIn: schoolSignIn,
    schoolIssuer: school.schoolUrl.href.replace(/\/+$/, ''),
    stepUpUrl: (id) => stepUpLink(publicUrl.base, id),
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
  auditProviderEvents(provider, audit);
  const interactions: InteractionContext = {
    provider,
    store,
    publicUrl,
    schoolSignIn,
    schoolUrl: school.schoolUrl,
    formKey: secrets.cookieKeys[0]!,
    logger: log,
    audit,
  };
  const oauth = provider.callback();
  const metadataDocuments = new Map(
    [...resourceMetadataDocuments(publicUrl, [MCP_SCOPE])].map(([path, document]) => [path, JSON.stringify(document)]),
  );
  const serverMetadataPaths = new Set(authorizationServerMetadataPaths(publicUrl));
  // The engine's public documents, by the paths a client asks for (before the rewrites below).
  const engineDocumentPaths = new Set([...serverMetadataPaths, `${publicUrl.path}${HOSTED_PATHS.jwks}`]);
  const trustProxy = options.trustProxy === true;

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Before the Host check: a load balancer asks by IP address.
    const probe = probeKindOf(req.url);
    if (probe === 'health') return sendProbe(res, healthAnswer(req.method));
    if (probe === 'ready')
      return sendProbe(
        res,
        readyAnswer(
          req.method,
          readinessOf({ draining: drain.draining, storeAnswers: drain.draining || (await storeAnswers()) }),
        ),
      );
    const host = checkHost(req.headersDistinct['host'], allowedHosts);
    if (!host.allowed) {
      // RFC 9110 §15.5.20: 421 for a request this server is not configured to answer for.
      log.debug('refused a request', { reason: host.reason });
      const single = req.headersDistinct['host']?.length === 1;
      return refuse(
        res,
        single ? 421 : 400,
        single ? 'misdirected_request' : 'invalid_request',
        `this server answers only for ${new URL(publicUrl.base).host}`,
      );
    }
    // From here on, every part (the engine, the consent pages) sees the public URL's scheme and host.
    const clientAddress = clientAddressOf(req.socket.remoteAddress, req.headersDistinct['x-forwarded-for'], trustProxy);
    req.headers = pinnedForwardingHeaders(req.headers, publicUrl, clientAddress);
    const [path, query] = splitTarget(req.url ?? '/');
    // The path below the public URL's; `undefined` outside it, where only well-known documents are.
    const local = pathUnderMount(publicUrl, path);
    const cap =
      local === '/mcp'
        ? BODY_CAPS.mcpRequest
        : local !== undefined && (CONSENT_PATH.test(local) || STEP_UP_PATH.test(local))
          ? BODY_CAPS.consentForm
          : BODY_CAPS.oauthRequest;
    if (declaredOverCap(req.headers['content-length'], cap))
      return refuse(res, 413, 'invalid_request', `the request body is larger than ${cap} bytes`);
    const metadata = metadataDocuments.get(path);
    if (metadata !== undefined && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': metadataCacheControl(200) });
      res.end(metadata);
      return;
    }
    if (local === '/mcp') {
      const origin = checkOrigin(req.headersDistinct['origin'], allowedOrigins);
      if (!origin.allowed) {
        log.warn('refused a request', { reason: origin.reason });
        audit.record({ event: 'access', outcome: 'refused', reason: 'a browser request from another origin' });
        return refuse(res, 403, 'forbidden', "a browser request to /mcp must come from this server's own origin");
      }
      const verdict = await checkAccess(provider, publicUrl, req.headersDistinct['authorization']);
      if (!verdict.ok) {
        // A request without a token is how every client starts (RFC 9728 discovery): not worth a line.
        if (verdict.refusal === 'invalid')
          audit.record({ event: 'access', outcome: 'refused', error: 'invalid_token' });
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': buildBearerChallenge(publicUrl, verdict.refusal),
        });
        res.end(JSON.stringify({ error: verdict.refusal === 'missing' ? 'unauthorized' : 'invalid_token' }));
        return;
      }
      return options.mcp(req, res, verdict.caller, {
        tokens: access.tokensFor(verdict.caller),
        account: access.accountFor(verdict.caller),
        stepUps: access.stepUpsFor(verdict.caller),
      });
    }
    const consent = local === undefined ? null : CONSENT_PATH.exec(local);
    if (consent !== null) {
      if (consent[2] !== undefined)
        return req.method === 'GET' ? handleConsentFinish(interactions, req, res, consent[1]!) : methodNotAllowed(res);
      return req.method === 'GET' || req.method === 'POST'
        ? handleConsentPage(interactions, req, res, consent[1]!)
        : methodNotAllowed(res);
    }
    const stepUp = local === undefined ? null : STEP_UP_PATH.exec(local);
    if (stepUp !== null)
      return req.method === 'GET' || req.method === 'POST'
        ? handleStepUp(interactions, req, res, stepUp[1]!)
        : methodNotAllowed(res);
    if (path === new URL(publicUrl.schoolCallback).pathname)
      return req.method === 'GET' ? handleSchoolCallback(interactions, req, res) : methodNotAllowed(res);
    if (engineDocumentPaths.has(path)) cacheLikeMetadata(res);
    if (local === HOSTED_PATHS.registration && req.method === 'POST') {
      const admission = await registrations.admit(clientAddress);
      if (!admission.admitted) {
        log.info('refused a registration', { reason: admission.description });
        return refuse(res, 429, 'temporarily_unavailable', admission.description, admission.retryAfterSeconds);
      }
    }
    // Everything else is the authorization server's (metadata, registration, authorize, token,
    // revoke), at its paths below the mount; the engine learns the mount as it does under Express
    // (`req.baseUrl`), so that every URL it publishes or redirects to carries the public URL's path.
    const engineTarget = serverMetadataPaths.has(path) ? ENGINE_DISCOVERY_PATH : local;
    if (engineTarget === undefined) return refuse(res, 404, 'not_found', `this server answers under ${publicUrl.base}`);
    req.url = `${engineTarget}${query}`;
    (req as IncomingMessage & { baseUrl?: string }).baseUrl = publicUrl.path;
    return oauth(req, res);
  };

  return route;
}

/** A refusal before any route ran, in the OAuth error shape (RFC 6749 §5.2) every client here reads. */
function refuse(
  res: ServerResponse,
  status: 400 | 403 | 404 | 413 | 421 | 429,
  error: string,
  description: string,
  retryAfterSeconds?: number,
): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  // The body of a refused upload is not read; closing the connection discards it.
  if (status === 413) headers['connection'] = 'close';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

/** Pure: a request target's path and its query (with its `?`, or empty). */
function splitTarget(target: string): readonly [string, string] {
  const at = target.indexOf('?');
  return at === -1 ? [target, ''] : [target.slice(0, at), target.slice(at)];
}

/** A new event stream on a kept-alive connection of a draining instance: the client reconnects, through the balancer, elsewhere. */
function refuseWhileDraining(res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'retry-after': '1',
    connection: 'close',
  });
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'this instance is stopping; retry' }));
}

/** The engine sets its headers and lets Node write the head: the cache rule goes in as the status is known. */
function cacheLikeMetadata(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    res.setHeader('cache-control', metadataCacheControl(statusCode));
    return writeHead(statusCode, ...rest);
  }) as ServerResponse['writeHead'];
}

function sendProbe(res: ServerResponse, answer: ProbeAnswer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function methodNotAllowed(res: ServerResponse): void {
  res.writeHead(405, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'method_not_allowed' }));
}
