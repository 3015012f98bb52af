/**
 * What counts as this machine. Pure.
 *
 * Two questions, two answers:
 * - Where plain http may go, and where the sign-in callback listens: only the loopback IP
 *   literals 127.0.0.1 and ::1. A name is answered by a resolver that the hosts file or the
 *   network can change (RFC 8252 §8.3), and macOS configures no other address of 127/8, so
 *   nothing else of 127/8 and not `localhost`.
 * - Which names mean "here" where nothing travels in clear on their word (an address to bind, a
 *   `Host` header to accept): the literals and `localhost`, which clients put in `Host`.
 * @see SECURITY.md LB-01, NET-07
 */

/** The loopback literals, IPv4 first: the callback listener binds these in this order (LB-01, LB-03). */
export const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'] as const;

/** The names a `Host` header carries for this machine, IPv6 in URL form. */
export const LOOPBACK_HOST_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** 127.0.0.1 or ::1, the IPv6 one bracketed (as `URL.hostname` gives it) or not. */
export function isLoopbackAddress(host: string): boolean {
  return host === '127.0.0.1' || unbracketed(host) === '::1';
}

/** A loopback literal, or `localhost` in any case. */
export function isLoopbackName(host: string): boolean {
  return isLoopbackAddress(host) || host.toLowerCase() === 'localhost';
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
