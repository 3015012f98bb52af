/**
 * The public URL of a hosted school-mcp: where MCP clients reach it and what its tokens are for.
 * It is the authorization server's issuer, the protected resource's identifier (RFC 9728 §2,
 * RFC 8707 audience) and the base of `/mcp` and `/oauth/callback`. Pure.
 */

export interface PublicUrl {
  /** Origin and path without a trailing slash, e.g. `https://mcp.school.example`. */
  readonly base: string;
  /** The path of `base`, where every route is mounted: `''` or e.g. `/mcp-gw`. */
  readonly path: string;
  /** The MCP endpoint, `{base}/mcp`. */
  readonly mcpUrl: string;
  /** Where the school sends its staff back, `{base}/oauth/callback`. */
  readonly schoolCallback: string;
}

export type PublicUrlParse =
  | { readonly ok: true; readonly url: PublicUrl }
  | { readonly ok: false; readonly reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function parsePublicUrl(value: string): PublicUrlParse {
  if (!URL.canParse(value)) return { ok: false, reason: `${JSON.stringify(value)} is not a URL` };
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return {
      ok: false,
      reason: 'the public URL must be https (plain http only on 127.0.0.1, [::1] or localhost, for tests and the demo)',
    };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'the public URL must not carry user information' };
  if (url.search !== '' || url.hash !== '')
    return { ok: false, reason: 'the public URL must not have a query or a fragment (RFC 8414 §2 issuer)' };
  const path = url.pathname.replace(/\/+$/, '');
  const base = `${url.origin}${path}`;
  return { ok: true, url: { base, path, mcpUrl: `${base}/mcp`, schoolCallback: `${base}/oauth/callback` } };
}
