/**
 * Which redirect URIs an MCP client may register (RFC 7591 §2): the https callback of a web client,
 * or a loopback one of a program on the user's machine (RFC 8252 §7.3). Anything else (a custom
 * scheme, plain http on a name, user information, a fragment) is refused at registration. And which
 * redirect URI an authorization request may name: a registered one, on any port when it is a
 * loopback one. Pure.
 * @see SECURITY.md HOST-05, HOST-29
 */

export type ClientRedirectCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function checkClientRedirectUri(value: unknown): ClientRedirectCheck {
  if (typeof value !== 'string' || !URL.canParse(value))
    return { ok: false, reason: 'a redirect URI must be an absolute URL' };
  const url = new URL(value);
  if (url.hash !== '' || value.includes('#'))
    return { ok: false, reason: 'a redirect URI must not contain a fragment (RFC 6749 §3.1.2)' };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'a redirect URI must not carry user information' };
  if (url.protocol === 'https:') return { ok: true };
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { ok: true };
  return { ok: false, reason: 'redirect URIs must be https, or http on a loopback address' };
}

/** The URI lists of a registration that name where a browser is sent back to the client. */
export interface ClientRedirectLists {
  readonly redirect_uris?: readonly unknown[];
  readonly post_logout_redirect_uris?: readonly unknown[];
}

/**
 * Every URI a client registers for a browser to be sent to, after authorization or after logout,
 * under the one rule above (HOST-05, HOST-40): a logout redirect is as much a redirect on this
 * server's name as an authorization one.
 */
export function checkClientRedirectUris(
  metadata: ClientRedirectLists,
): { readonly ok: true } | { readonly ok: false; readonly field: keyof ClientRedirectLists; readonly reason: string } {
  for (const [field, uris] of [
    ['redirect_uris', metadata.redirect_uris],
    ['post_logout_redirect_uris', metadata.post_logout_redirect_uris],
  ] as const) {
    if (uris === undefined) continue;
    if (!Array.isArray(uris)) return { ok: false, field, reason: `${field} must be an array of URIs` };
    for (const uri of uris) {
      const check = checkClientRedirectUri(uri);
      if (!check.ok) return { ok: false, field, reason: `${field}: ${check.reason}` };
    }
  }
  return { ok: true };
}

/**
 * Whether an authorization request's `redirect_uri` is one the client registered. RFC 8252 §7.3:
 * a program on the user's machine listens on whatever port is free when it signs in, so the port
 * of a loopback redirect URI is not compared; scheme, host, path and query are, exactly.
 * `localhost` keeps the rule it registered under: §8.3 finds it works like the IP literals, only
 * less safely for the program (a resolver may answer for it), and that risk is the same on every
 * port. A URL client_id's document is compared exactly (HOST-18): `portFree` is false for it.
 */
export function redirectUriAllowed(registered: readonly string[], requested: string, portFree: boolean): boolean {
  if (!URL.canParse(requested)) return false;
  const asked = new URL(requested);
  if (registered.some((uri) => URL.canParse(uri) && new URL(uri).href === asked.href)) return true;
  if (!portFree || asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return false;
  asked.port = '';
  return registered.some((uri) => {
    if (!URL.canParse(uri)) return false;
    const allowed = new URL(uri);
    allowed.port = '';
    return allowed.href === asked.href;
  });
}
