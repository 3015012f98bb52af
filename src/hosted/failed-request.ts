/**
 * A request whose route threw: a store that does not answer is 503 `temporarily_unavailable`
 * (SCL-02), anything else a logged 500 `server_error`, so that no failure leaves a request hanging.
 * @see SECURITY.md SCL-02
 */
import type { Logger } from '../log.js';
import type { Exchange, Step } from './request-steps.js';
import { answerStoreOutage, isStoreUnavailable } from './store-outage.js';

export function answerFailedRequests(log: Pick<Logger, 'warn'>): Step<Exchange> {
  return ({ res }, next) =>
    next().catch((error: unknown) => {
      if (isStoreUnavailable(error)) return answerStoreOutage(res);
      log.warn('a hosted request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'server_error' }));
    });
}
