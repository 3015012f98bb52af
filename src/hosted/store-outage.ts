/**
 * A store that does not answer, seen from the hosted server: every route that needed it answers
 * 503 with `Retry-After: 1` and an OAuth-shaped body (RFC 6749 §4.1.2.1 names
 * `temporarily_unavailable`), fast, since the Redis store fails at once while disconnected; the
 * log gets one warning when the outage starts and one line when the store answers again, however
 * many requests fail meanwhile. Nothing is retried here: the client's retry lands after the
 * store's own reconnection.
 * @see SECURITY.md SCL-02, SCL-03
 */
import type { ServerResponse } from 'node:http';
import { isStoreUnavailable, type GrantStore } from '../grant-store/index.js';
import type { Logger } from '../log.js';

export { isStoreUnavailable };

export type StoreState = 'answering' | 'unavailable';

/** Pure: the state after a store call, and the line to log when it changed. */
export function nextStoreState(
  current: StoreState,
  callFailedUnavailable: boolean,
): { state: StoreState; announce?: 'outage' | 'recovery' } {
  if (callFailedUnavailable)
    return current === 'unavailable' ? { state: current } : { state: 'unavailable', announce: 'outage' };
  return current === 'answering' ? { state: current } : { state: 'answering', announce: 'recovery' };
}

export const STORE_OUTAGE_BODY = {
  error: 'temporarily_unavailable',
  error_description: "school-mcp's grant store is not answering; retry in a moment",
} as const;

/** Pure: the headers of the 503 a route answers while the store is away. */
export function storeOutageHeaders(): Record<string, string> {
  return { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': '1' };
}

export function answerStoreOutage(res: ServerResponse): void {
  if (res.headersSent) {
    // A stream already under way cannot change its status; ending it is the clear signal left.
    res.end();
    return;
  }
  res.writeHead(503, storeOutageHeaders());
  res.end(JSON.stringify(STORE_OUTAGE_BODY));
}

export interface WatchedStore {
  /** The same store, whose calls report to the watcher. */
  readonly store: GrantStore;
  readonly state: () => StoreState;
}

/** Wraps `store` so that its outages and recoveries are logged once each. */
export function watchStoreOutages(store: GrantStore, log: Pick<Logger, 'warn' | 'info'>): WatchedStore {
  let state: StoreState = 'answering';
  const observe = async <T>(call: () => Promise<T>): Promise<T> => {
    // A call that failed otherwise (a record that did not open) still heard the store answer.
    let failure: unknown;
    try {
      return await call();
    } catch (error) {
      if (isStoreUnavailable(error)) failure = error;
      throw error;
    } finally {
      const next = nextStoreState(state, failure !== undefined);
      state = next.state;
      // The one warning of the outage, so it carries the cause (a refused connection, a timeout).
      if (next.announce === 'outage')
        log.warn('the grant store is not answering: hosted routes answer 503 until it is back', {
          error: (failure as Error).message,
        });
      if (next.announce === 'recovery') log.info('the grant store answers again: hosted routes serve again');
    }
  };
  return {
    state: () => state,
    store: {
      read: (namespace, name) => observe(() => store.read(namespace, name)),
      write: (namespace, name, value, options) => observe(() => store.write(namespace, name, value, options)),
      remove: (namespace, name) => observe(() => store.remove(namespace, name)),
      writeIfAbsent: (namespace, name, value, options) =>
        observe(() => store.writeIfAbsent(namespace, name, value, options)),
      take: (namespace, name) => observe(() => store.take(namespace, name)),
      sweep: () => observe(() => store.sweep()),
      ping: () => observe(() => store.ping()),
      lock: (namespace, name, options) => observe(() => store.lock(namespace, name, options)),
      writeFenced: (namespace, name, value, fence, options) =>
        observe(() => store.writeFenced(namespace, name, value, fence, options)),
      misshapenRecord: (namespace) => store.misshapenRecord?.(namespace),
    },
  };
}
