/**
 * The authorization server's routes (metadata, registration, authorize, token, revoke) are
 * node-oidc-provider's, at its own paths below the mount: the engine learns the mount as it does
 * under Express (`req.baseUrl`), so that every URL it publishes or redirects to carries the public
 * URL's path (HOST-28). Open registration is bounded before the engine sees it (HOST-44).
 * @see SECURITY.md HOST-28, HOST-44
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import type { PublicUrl } from './public-url.js';
import type { RegistrationLimits } from './registration-limits.js';
import { refuseRequest } from './request-refusal.js';
import type { HostedExchange, Step } from './request-steps.js';

export function passToEngine(
  oauth: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  publicUrl: PublicUrl,
): Step<HostedExchange<{ readonly url: string }>> {
  return async ({ req, res, route }) => {
    req.url = route.url;
    (req as IncomingMessage & { baseUrl?: string }).baseUrl = publicUrl.path;
    return oauth(req, res);
  };
}

/** 429 for a registration past its client address's or the server's hourly limit (HOST-44). */
export function limitRegistrations(registrations: RegistrationLimits, log: Pick<Logger, 'info'>): Step<HostedExchange> {
  return async ({ res, clientAddress }, next) => {
    const admission = await registrations.admit(clientAddress);
    if (admission.admitted) return next();
    log.info('refused a registration', { reason: admission.description });
    refuseRequest(res, 429, 'temporarily_unavailable', admission.description, admission.retryAfterSeconds);
  };
}

export function refuseOutsideMount(publicUrl: PublicUrl): Step<HostedExchange> {
  return async ({ res }) => refuseRequest(res, 404, 'not_found', `this server answers under ${publicUrl.base}`);
}
