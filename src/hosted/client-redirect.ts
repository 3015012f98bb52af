/**
 * Which redirect URIs an MCP client may register (RFC 7591 §2): the https callback of a web client,
 * or a loopback one of a program on the user's machine (RFC 8252 §7.3). Anything else (a custom
 * scheme, plain http on a name, user information, a fragment) is refused at registration. Pure.
 */

export type ClientRedirectCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function checkClientRedirectUri(value: unknown): ClientRedirectCheck {
  if (typeof value !== 'string' || !URL.canParse(value)) return { ok: false, reason: 'a redirect URI must be an absolute URL' };
  const url = new URL(value);
  if (url.hash !== '' || value.includes('#')) return { ok: false, reason: 'a redirect URI must not contain a fragment (RFC 6749 §3.1.2)' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'a redirect URI must not carry user information' };
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
export function checkClientRedirectUris(metadata: ClientRedirectLists): { readonly ok: true } | { readonly ok: false; readonly field: keyof ClientRedirectLists; readonly reason: string } {
  for (const [field, uris] of [['redirect_uris', metadata.redirect_uris], ['post_logout_redirect_uris', metadata.post_logout_redirect_uris]] as const) {
    if (uris === undefined) continue;
    if (!Array.isArray(uris)) return { ok: false, field, reason: `${field} must be an array of URIs` };
    for (const uri of uris) {
      const check = checkClientRedirectUri(uri);
      if (!check.ok) return { ok: false, field, reason: `${field}: ${check.reason}` };
    }
  }
  return { ok: true };
}
