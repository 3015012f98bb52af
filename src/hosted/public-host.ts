/**
 * Who may talk to a hosted school-mcp, decided from the request's `Host` and `Origin` before any
 * route runs. Pure. The comparisons themselves are the HTTP endpoint's (HTTP-02/03); only the
 * allow-lists differ: a hosted server answers to its public URL, not to loopback names.
 * @see SECURITY.md HOST-23, HOST-24
 */
import { isLoopbackName, LOOPBACK_HOST_NAMES } from '../network/index.js';
import { normalizeAllowedOrigin, splitHostEntry } from '../transports/index.js';
import type { PublicUrl } from './public-url.js';

export interface PublicHostInput {
  readonly publicUrl: PublicUrl;
  /** The port the server listens on, which a proxy may name in the `Host` it forwards. */
  readonly listenPort: number;
  /** `--allowed-host` entries, `name` or `name:port`, for a proxy that rewrites `Host`. */
  readonly extraHosts: readonly string[];
}

/**
 * The exact, lower-cased `Host` values served: the public URL's host (with its port, and bare when
 * that port is the scheme's default, RFC 9110 §7.2), the loopback names only when the public URL
 * is itself loopback, and the names the operator added (bare: our listen port or none).
 */
export function publicHostAllowList({ publicUrl, listenPort, extraHosts }: PublicHostInput): ReadonlySet<string> {
  const url = new URL(publicUrl.base);
  const publicPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const allowed = new Set<string>();
  const add = (name: string, port: number) => {
    allowed.add(`${name.toLowerCase()}:${port}`);
    if (port === publicPort && url.port === '') allowed.add(name.toLowerCase());
  };
  add(url.hostname.includes(':') && !url.hostname.startsWith('[') ? `[${url.hostname}]` : url.hostname, publicPort);
  if (isLoopbackName(url.hostname)) {
    for (const name of LOOPBACK_HOST_NAMES) {
      add(name, publicPort);
      add(name, listenPort);
    }
  }
  for (const entry of extraHosts) {
    const { name, port } = splitHostEntry(entry);
    if (port !== undefined) allowed.add(`${name.toLowerCase()}:${port}`);
    else {
      allowed.add(name.toLowerCase());
      allowed.add(`${name.toLowerCase()}:${listenPort}`);
    }
  }
  return allowed;
}

/** The origins a browser may send `/mcp` requests from: the public URL's own, and those allowed. */
export function publicOriginAllowList(publicUrl: PublicUrl, extraOrigins: readonly string[]): ReadonlySet<string> {
  return new Set([new URL(publicUrl.base).origin, ...extraOrigins.map((origin) => normalizeAllowedOrigin(origin))]);
}
