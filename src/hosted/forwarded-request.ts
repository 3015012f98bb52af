/**
 * What the hosted server believes of a request's origin. The engine builds every URL it publishes
 * (metadata, redirects to its own pages) from the request's scheme and host, and with a proxy in
 * front it reads them from `X-Forwarded-Proto` and `X-Forwarded-Host`, which any client can send.
 * So those two are always replaced with the public URL's own before the engine sees the request,
 * and `X-Forwarded-For` names the client only when the operator said a proxy sets it
 * (`--trust-proxy`); otherwise the client is the peer of the socket. Pure.
 * @see SECURITY.md HOST-41
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { PublicUrl } from './public-url.js';

/** The headers that claim where a request came from, none of which a client's own word may set. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-real-ip',
] as const;

/** `::ffff:192.0.2.1` (an IPv4 peer on a dual-stack socket) is `192.0.2.1`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The client's address: the socket's peer, or, behind a proxy the operator trusts, the last
 * `X-Forwarded-For` entry, the one that proxy appended (entries before it are the client's word).
 * A trusted header that holds no address falls back to the peer.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: readonly string[] | undefined,
  trustProxy: boolean,
): string {
  const socketAddress = plainAddress(peer ?? 'unknown');
  if (!trustProxy || forwardedFor === undefined || forwardedFor.length === 0) return socketAddress;
  const last = forwardedFor[forwardedFor.length - 1]!.split(',').at(-1)!.trim();
  return isIP(last) === 0 ? socketAddress : plainAddress(last);
}

/**
 * The request's headers as the engine should see them: the forwarding headers dropped, then the
 * public URL's scheme and host, and the client address decided above, put in their place.
 */
export function pinnedForwardingHeaders(
  headers: IncomingHttpHeaders,
  publicUrl: PublicUrl,
  clientAddress: string,
): IncomingHttpHeaders {
  const pinned: IncomingHttpHeaders = { ...headers };
  for (const name of FORWARDING_HEADERS) delete pinned[name];
  const url = new URL(publicUrl.base);
  pinned['x-forwarded-proto'] = url.protocol.slice(0, -1);
  pinned['x-forwarded-host'] = url.host;
  pinned['x-forwarded-for'] = clientAddress;
  return pinned;
}
