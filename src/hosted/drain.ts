/**
 * Stopping an instance behind a load balancer without failing what it is doing: from the first
 * moment `/readyz` says draining, the listener closes (a new connection is refused, so a balancer
 * that retries on a refused connection sends it elsewhere), every answer carries
 * `Connection: close`, idle kept-alive connections go, long-lived event streams are ended (their
 * clients reconnect through the balancer), and the requests in flight finish, for at most the
 * grace period; whatever is left then is cut.
 * @see SECURITY.md SCL-04
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Exchange, Step } from './request-steps.js';

export type DrainOutcome = 'drained' | 'cut';

export interface Drain {
  readonly draining: boolean;
  /**
   * Counts a request until its answer is done; `stream` marks one that waits for events rather
   * than ending by itself. `false` for a stream asked for while draining: it is not to be served.
   */
  track(req: IncomingMessage, res: ServerResponse, stream: boolean): boolean;
  /** Starts draining (once; later calls share the first) and resolves when the server is closed. */
  drain(graceMs: number): Promise<DrainOutcome>;
}

/** Pure: the grace period in milliseconds for `--drain-seconds`, which 0 makes "close at once". */
export function drainGraceMs(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
}

export function createDrain(server: Server): Drain {
  const inFlight = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();
  let started: Promise<DrainOutcome> | undefined;

  const sayClose = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };

  return {
    get draining() {
      return started !== undefined;
    },
    track(_req, res, stream) {
      if (started !== undefined && stream) return false;
      if (started !== undefined) sayClose(res);
      inFlight.add(res);
      if (stream) {
        streams.add(res);
        // Ended from here while the handler may still write: a late write must not crash the process.
        res.on('error', () => undefined);
      }
      res.once('close', () => {
        inFlight.delete(res);
        streams.delete(res);
        // A kept-alive connection whose answer went out before `Connection: close` could be set.
        if (started !== undefined) server.closeIdleConnections();
      });
      return true;
    },
    drain(graceMs) {
      started ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const res of inFlight) sayClose(res);
        for (const res of streams) res.end();
        server.closeIdleConnections();
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'cut'>((resolve) => {
          timer = setTimeout(() => resolve('cut'), graceMs);
        });
        const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline]);
        clearTimeout(timer);
        server.closeAllConnections();
        await closed;
        return outcome;
      })();
      return started;
    },
  };
}

/**
 * The first step of every request: counted until answered, so that a drain waits for it. An event
 * stream (a GET asking for text/event-stream) never ends by itself, so a drain ends it, and a new
 * one on a kept-alive connection of a draining instance is refused: its client reconnects, through
 * the balancer, elsewhere.
 */
export function trackedByDrain(drain: Pick<Drain, 'track'>): Step<Exchange> {
  return ({ req, res }, next) => {
    if (drain.track(req, res, req.method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream')))
      return next();
    res.writeHead(503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'retry-after': '1',
      connection: 'close',
    });
    res.end(
      JSON.stringify({ error: 'temporarily_unavailable', error_description: 'this instance is stopping; retry' }),
    );
    return Promise.resolve();
  };
}
