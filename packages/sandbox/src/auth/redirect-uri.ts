/**
 * Redirect URI rules. Registration is open to loopback clients only (`http://127.0.0.1:<port>/...`,
 * the contract's rule); at the authorization endpoint a requested URI must equal a registered one
 * except for the loopback port (RFC 8252 §7.3), or exactly when the school requires the port too.
 */

export type RedirectUriCheck = { ok: true } | { ok: false; reason: string };

/** Pure: whether a redirect URI may be registered. */
export function checkRegistrableRedirectUri(value: unknown): RedirectUriCheck {
  const parsed = parseRedirectUri(value);
  if (!parsed.ok) return parsed;
  const { url, text } = parsed;
  if (url.protocol === 'https:') {
    return {
      ok: false,
      reason:
        'a fixed https callback requires a registered integration; open registration accepts loopback URIs http://127.0.0.1:<port>/<path> only',
    };
  }
  if (url.protocol !== 'http:')
    return { ok: false, reason: `scheme ${url.protocol} is not allowed; use http://127.0.0.1:<port>/<path>` };
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'a redirect URI must not carry user information' };
  if (url.hostname === 'localhost') {
    return { ok: false, reason: 'use the loopback IP literal 127.0.0.1, not localhost (RFC 8252 §8.3)' };
  }
  if (url.hostname !== '127.0.0.1')
    return { ok: false, reason: `host ${url.hostname} is not the loopback address 127.0.0.1` };
  // Reject every spelling that only normalises to 127.0.0.1 (0x7f.1, 2130706433, dot segments, ...):
  // what is registered is what the browser will be sent to, character for character.
  if (url.href !== text)
    return { ok: false, reason: `the redirect URI is not in canonical form (expected ${url.href})` };
  if (url.port === '0') return { ok: false, reason: 'port 0 is not a port a browser can be sent to' };
  return { ok: true };
}

/**
 * Pure: whether a registered integration may use this callback: https on any host, or plain http
 * on 127.0.0.1 so that tests and the demo can run one without a certificate. Canonical form only,
 * no fragment and no user information, as for open registration.
 */
export function checkIntegrationRedirectUri(value: unknown): RedirectUriCheck {
  const parsed = parseRedirectUri(value);
  if (!parsed.ok) return parsed;
  const { url, text } = parsed;
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'a redirect URI must not carry user information' };
  if (url.protocol === 'http:' && url.hostname !== '127.0.0.1')
    return { ok: false, reason: 'an integration callback must be https (plain http only on 127.0.0.1)' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `scheme ${url.protocol} is not allowed for an integration callback` };
  if (url.href !== text)
    return { ok: false, reason: `the redirect URI is not in canonical form (expected ${url.href})` };
  return { ok: true };
}

/**
 * Pure: the registered URI that the requested one matches, if any. Matching compares scheme,
 * host, path and query exactly; the port is ignored for loopback URIs unless `exactPort` is set.
 */
export function matchRedirectUri(
  registered: readonly string[],
  requested: string,
  options: { exactPort: boolean },
): string | undefined {
  let requestedUrl: URL;
  try {
    requestedUrl = new URL(requested);
  } catch {
    return undefined;
  }
  if (requestedUrl.href !== requested || requested.includes('#')) return undefined;
  for (const candidate of registered) {
    if (candidate === requested) return candidate;
    if (options.exactPort) continue;
    const registeredUrl = new URL(candidate);
    if (
      registeredUrl.hostname === '127.0.0.1' &&
      requestedUrl.protocol === registeredUrl.protocol &&
      requestedUrl.hostname === registeredUrl.hostname &&
      requestedUrl.pathname === registeredUrl.pathname &&
      requestedUrl.search === registeredUrl.search &&
      requestedUrl.username === '' &&
      requestedUrl.password === '' &&
      requestedUrl.port !== '0'
    ) {
      return candidate;
    }
  }
  return undefined;
}

/** The checks both kinds of redirect URI share: a non-empty string that parses, without a fragment. */
function parseRedirectUri(
  value: unknown,
): { readonly ok: true; readonly url: URL; readonly text: string } | { readonly ok: false; readonly reason: string } {
  if (typeof value !== 'string' || value === '')
    return { ok: false, reason: 'a redirect URI must be a non-empty string' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: `not a valid URI: ${truncate(value)}` };
  }
  if (value.includes('#')) return { ok: false, reason: 'a redirect URI must not contain a fragment (RFC 6749 §3.1.2)' };
  return { ok: true, url, text: value };
}

function truncate(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}...` : value;
}
