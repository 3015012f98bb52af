/**
 * `/mcp`, any method: a browser's request from another origin is refused (HOST-24), then the bearer
 * token is checked (HOST-01, HOST-02), and only a request that passed both reaches the caller's MCP
 * handler, with that person's school grant, account and step-ups.
 * @see SECURITY.md HOST-24, HOST-01, HOST-02
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AuditLog } from '../audit/index.js';
import type { ConsentBroker } from '../consent/index.js';
import type { Logger } from '../log.js';
import { checkOrigin } from '../transports/index.js';
import { checkAccess, type HostedCaller } from './access-check.js';
import type { CallerAccount, CallerTokens } from './caller-access.js';
import type { PublicUrl } from './public-url.js';
import { refuseRequest } from './request-refusal.js';
import type { HostedExchange, Step } from './request-steps.js';
import { buildBearerChallenge } from './resource-metadata.js';

/** What one caller's tools run with: that person's school grant, account and step-ups. */
export interface CallerServices {
  readonly tokens: CallerTokens;
  readonly account: CallerAccount;
  readonly stepUps: ConsentBroker;
}

/** Serves one `/mcp` request of a caller whose token passed. */
export type McpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  caller: HostedCaller,
  access: CallerServices,
) => Promise<void>;

export function refuseOtherOrigins(
  allowedOrigins: ReadonlySet<string>,
  log: Pick<Logger, 'warn'>,
  audit: AuditLog,
): Step<HostedExchange> {
  return async ({ req, res }, next) => {
    const origin = checkOrigin(req.headersDistinct['origin'], allowedOrigins);
    if (origin.allowed) return next();
    log.warn('refused a request', { reason: origin.reason });
    audit.record({ event: 'access', outcome: 'refused', reason: 'a browser request from another origin' });
    refuseRequest(res, 403, 'forbidden', "a browser request to /mcp must come from this server's own origin");
  };
}

export interface TokenHolderService {
  readonly provider: Provider;
  readonly publicUrl: PublicUrl;
  readonly audit: AuditLog;
  readonly mcp: McpHandler;
  readonly servicesOf: (caller: HostedCaller) => CallerServices;
}

/** 401 with the challenge that leads to the metadata (RFC 9728 §5.1) unless the token passes; the MCP handler then. */
export function serveTokenHolders(service: TokenHolderService): Step<HostedExchange> {
  return async ({ req, res }) => {
    const verdict = await checkAccess(service.provider, service.publicUrl, req.headersDistinct['authorization']);
    if (verdict.ok) return service.mcp(req, res, verdict.caller, service.servicesOf(verdict.caller));
    // A request without a token is how every client starts (RFC 9728 discovery): not worth a line.
    if (verdict.refusal === 'invalid')
      service.audit.record({ event: 'access', outcome: 'refused', error: 'invalid_token' });
    res.writeHead(401, {
      'content-type': 'application/json',
      'www-authenticate': buildBearerChallenge(service.publicUrl, verdict.refusal),
    });
    res.end(JSON.stringify({ error: verdict.refusal === 'missing' ? 'unauthorized' : 'invalid_token' }));
  };
}
