/**
 * Which RFC 8707 resource indicators name this server. Clients spell the same resource in several
 * ways (the TS SDK turns `https://h` into `https://h/`, Python's URL type does the same, a client
 * may send the MCP endpoint itself), so every comparison of a resource goes through one
 * normalisation: RFC 3986 §6.2.2 (case of scheme and host, percent-encoding of unreserved
 * characters and the case of the others, dot segments) and §6.2.3 (the scheme's default port, an
 * empty path being "/"), and a trailing slash of the path counted as none, since no resource here
 * differs from its slashed spelling. Pure.
 * @see SECURITY.md HOST-27
 */
import type { PublicUrl } from './public-url.js';

/** RFC 3986 §2.3. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * The normal form of a resource indicator, or `undefined` for one that is not an absolute URI,
 * carries a fragment (RFC 8707 §2) or user information: none of those names anything here.
 */
export function normalizeResource(value: string): string | undefined {
  if (!URL.canParse(value) || value.includes('#')) return undefined;
  // The WHATWG parser lower-cases the scheme and host, drops the default port, resolves dot
  // segments (also percent-encoded ones) and gives an http(s) URL the path "/" when it has none.
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return undefined;
  const path = normalizePercentEncoding(url.pathname).replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${normalizePercentEncoding(url.search)}`;
}

export function sameResource(a: string, b: string): boolean {
  const normal = normalizeResource(a);
  return normal !== undefined && normal === normalizeResource(b);
}

/**
 * The resources this server issues tokens for: the public URL (the metadata at
 * `/.well-known/oauth-protected-resource{path}` names it) and the MCP endpoint (RFC 9728 §3.3: the
 * metadata at `…{path}/mcp` is that resource's). Both get one audience, the public URL.
 */
export function isOwnResource(publicUrl: PublicUrl, indicator: string): boolean {
  return sameResource(indicator, publicUrl.base) || sameResource(indicator, publicUrl.mcpUrl);
}
