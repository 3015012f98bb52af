/**
 * openid-client, loaded on first use rather than at start. Loading it (with oauth4webapi and a
 * dozen jose modules) cost about 17 ms wall and 20 ms CPU of a fresh Node 20 process, out of a
 * cached start of about 265 ms; a start whose stored tokens are still valid never needs it, since
 * API calls carry the bearer token over undici. Discovery, registration, the code exchange,
 * refresh, revocation, introspection and userinfo await `loadOpenIdClient()`.
 */
type OpenIdClient = typeof import('openid-client');

let pending: Promise<OpenIdClient> | undefined;
let loaded: OpenIdClient | undefined;

export function loadOpenIdClient(): Promise<OpenIdClient> {
  return (pending ??= import('openid-client').then((module) => (loaded = module)));
}

/**
 * The module if some earlier step loaded it. An error can only be an instance of openid-client's
 * classes once openid-client is loaded, so sync code that classifies errors reads "not loaded" as
 * "not an instance".
 */
export function loadedOpenIdClient(): OpenIdClient | undefined {
  return loaded;
}
