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
