/**
 * node-oidc-provider answers any error that is not an OAuth error as 500 `server_error` (its
 * route error handlers catch it and emit `server_error`), or, on the authorization endpoint, may
 * redirect it to the client. A storage adapter call that failed because the store is away is
 * neither the client's fault nor a bug: it is turned here, after the engine answered, into the
 * same 503 `temporarily_unavailable` with `Retry-After: 1` as every other hosted route's.
 * @see SECURITY.md SCL-02
 */
import type Provider from 'oidc-provider';
import { isStoreUnavailable, STORE_OUTAGE_BODY, storeOutageHeaders } from './store-outage.js';

export function answerProviderStoreOutagesWith503(provider: Provider): void {
  const outages = new WeakSet<object>();
  provider.on('server_error', (ctx: object, error: unknown) => {
    if (isStoreUnavailable(error)) outages.add(ctx);
  });
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // An error outside the engine's route handlers would otherwise become Koa's plain-text 500.
      if (!isStoreUnavailable(error)) throw error;
      outages.add(ctx);
    }
    if (!outages.has(ctx)) return;
    ctx.remove('location');
    ctx.remove('set-cookie');
    ctx.status = 503;
    ctx.set(storeOutageHeaders());
    ctx.body = STORE_OUTAGE_BODY;
  });
}
