/**
 * The steps every request of the hosted server passes, in this order, before its route runs: the
 * load balancer's probes (answered before the `Host` check, since a balancer asks by IP address),
 * the `Host` check, the forwarding headers pinned to the public URL's, and the body cap of the route.
 * @see SECURITY.md SCL-01, HOST-23, HOST-41, HOST-25
 */
import type { ServerResponse } from 'node:http';
import { declaredOverCap } from '../network/index.js';
import type { Logger } from '../log.js';
import { checkHost } from '../transports/index.js';
import type { Drain } from './drain.js';
import { pinnedForwardingHeaders } from './forwarded-request.js';
import { healthAnswer, probeKindOf, readinessOf, readyAnswer, type ProbeAnswer } from './health-check.js';
import { bodyCapOf } from './hosted-route.js';
import type { PublicUrl } from './public-url.js';
import { refuseRequest } from './request-refusal.js';
import type { HostedExchange, Step } from './request-steps.js';

/** `/healthz` and `/readyz` (SCL-01); `/readyz` says draining from a drain's first moment. */
export function answerProbes(
  drain: Pick<Drain, 'draining'>,
  storeAnswers: () => Promise<boolean>,
): Step<HostedExchange> {
  return async ({ req, res }, next) => {
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
    return next();
  };
}

/** Only the public URL's host (HOST-23); RFC 9110 §15.5.20: 421 for a request this server is not configured to answer for. */
export function refuseOtherHosts(
  allowedHosts: ReadonlySet<string>,
  publicUrl: PublicUrl,
  log: Pick<Logger, 'debug'>,
): Step<HostedExchange> {
  return async ({ req, res }, next) => {
    const host = checkHost(req.headersDistinct['host'], allowedHosts);
    if (host.allowed) return next();
    log.debug('refused a request', { reason: host.reason });
    const single = req.headersDistinct['host']?.length === 1;
    refuseRequest(
      res,
      single ? 421 : 400,
      single ? 'misdirected_request' : 'invalid_request',
      `this server answers only for ${new URL(publicUrl.base).host}`,
    );
  };
}

/** From here on, every part (the engine, the consent pages) sees the public URL's scheme and host (HOST-41). */
export function pinForwardingHeaders(publicUrl: PublicUrl): Step<HostedExchange> {
  return ({ req, clientAddress }, next) => {
    req.headers = pinnedForwardingHeaders(req.headers, publicUrl, clientAddress);
    return next();
  };
}

/** A declared body larger than its route takes is refused unread (HOST-25). */
export const refuseOversizedBodies: Step<HostedExchange> = async ({ req, res, route }, next) => {
  const cap = bodyCapOf(route);
  if (!declaredOverCap(req.headers['content-length'], cap)) return next();
  refuseRequest(res, 413, 'invalid_request', `the request body is larger than ${cap} bytes`);
};

function sendProbe(res: ServerResponse, answer: ProbeAnswer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
