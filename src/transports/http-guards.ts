/**
 * Pure checks of who may talk to the HTTP endpoint, run before anything else sees a request.
 * A DNS-rebound web page reaches our socket with its own name in `Host` and its own origin in
 * `Origin`; both are compared exactly (name and port) against short allow-lists.
 * @see SECURITY.md HTTP-01, HTTP-02, HTTP-03, HTTP-11
 */
import { SchoolMcpError } from '../errors.js';
import { isLoopbackName, LOOPBACK_HOST_NAMES } from '../network/index.js';

export type GuardVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: GuardVerdict = { allowed: true };

/** An address that listens on every interface, so it has no name of its own to expect in `Host`. */
export function isWildcardAddress(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

export interface HostAllowListInput {
  /** The address the listener is bound to, as given to `--host`. */
  readonly bindHost: string;
  /** The port actually bound (after port 0 was resolved). */
  readonly port: number;
  /** Extra names from `--allowed-host`, `name` or `name:port`. */
  readonly extraHosts: readonly string[];
}

/**
 * The exact `Host` values the endpoint answers to: the loopback names with our own port, the
 * bound address when it is a specific one, and what the user added. A value without a port
 * means our port. Lower-cased, since host names compare case-insensitively (RFC 9110 §4.2.3).
 */
export function hostAllowList({ bindHost, port, extraHosts }: HostAllowListInput): ReadonlySet<string> {
  const names = new Set<string>(LOOPBACK_HOST_NAMES);
  if (!isLoopbackName(bindHost) && !isWildcardAddress(bindHost)) names.add(bracketed(bindHost));
  const allowed = new Set<string>();
  const add = (name: string, withPort: number | undefined) => {
    const lower = name.toLowerCase();
    allowed.add(`${lower}:${withPort ?? port}`);
    // Clients leave the port out of `Host` when it is the scheme's default (RFC 9110 §7.2).
    if ((withPort ?? port) === 80) allowed.add(lower);
  };
  for (const name of names) add(name, undefined);
  for (const entry of extraHosts) {
    const { name, port: entryPort } = splitHostEntry(entry);
    add(name, entryPort);
  }
  return allowed;
}

/** Pure: `name`, `name:port`, `[v6]` or `[v6]:port`; refuses anything with a scheme, path or user. */
export function splitHostEntry(entry: string): { name: string; port: number | undefined } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry.trim());
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!match || (port !== undefined && (port < 1 || port > 65535))) {
    throw new SchoolMcpError(
      'HTTP_HOST_INVALID',
      `--allowed-host takes a host name with an optional port, got ${JSON.stringify(entry)}`,
      {
        hint: 'write it as it appears in the Host header, e.g. mcp.internal.example:8080',
      },
    );
  }
  return { name: match[1]!, port };
}

/**
 * HTTP-02: exactly one `Host` header whose value is in the allow-list. A missing header (an
 * HTTP/1.0 request) or two of them are refused: neither comes from a well-behaved client.
 */
export function checkHost(values: readonly string[] | undefined, allowed: ReadonlySet<string>): GuardVerdict {
  if (values === undefined || values.length === 0) return { allowed: false, reason: 'missing Host header' };
  if (values.length > 1) return { allowed: false, reason: 'more than one Host header' };
  if (!allowed.has(values[0]!.toLowerCase())) return { allowed: false, reason: 'Host not allowed' };
  return ALLOWED;
}

/**
 * Pure: an origin the user allowed, in the serialized form a browser sends (RFC 6454 §6.1):
 * scheme, host and port only. `null` and anything with a path are refused.
 */
export function normalizeAllowedOrigin(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const bare =
    url !== undefined &&
    (url.pathname === '/' || url.pathname === '') &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password;
  if (!url || !bare || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SchoolMcpError(
      'HTTP_ORIGIN_INVALID',
      `--allowed-origin takes an origin like https://app.example:8443, got ${JSON.stringify(text)}`,
      {
        hint: 'give the scheme, host and port only, exactly as the browser sends it in the Origin header',
      },
    );
  }
  return url.origin;
}

/**
 * HTTP-03, stricter than the SDK's port-agnostic default: a request without `Origin` (every
 * non-browser client) passes; a present one must equal an allowed origin exactly. With the
 * default empty list every browser-originated request, `Origin: null` included, is refused.
 */
export function checkOrigin(values: readonly string[] | undefined, allowedOrigins: ReadonlySet<string>): GuardVerdict {
  if (values === undefined || values.length === 0) return ALLOWED;
  if (values.length > 1) return { allowed: false, reason: 'more than one Origin header' };
  if (!allowedOrigins.has(values[0]!)) return { allowed: false, reason: 'Origin not allowed' };
  return ALLOWED;
}

/**
 * HTTP-11: the origins of the endpoint itself on loopback, with the port it is bound to. A page
 * with one of them can only have come from this listener (nothing else can hold the port), so a
 * request carrying it is no rebound page; the conformance suite's DNS-rebinding scenario sends it.
 * A rebound page still carries its own name, which neither these nor the Host check admit.
 */
export function ownLoopbackOrigins(port: number): ReadonlySet<string> {
  return new Set(LOOPBACK_HOST_NAMES.map((name) => `http://${name}:${port}`));
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
