/**
 * The socket limits of a hosted school-mcp, a public endpoint: anyone on the internet can open a
 * connection, so Node's defaults (60 s for headers, 300 s for a request, no connection cap,
 * unbounded keep-alive reuse) would let a few slow or idle clients hold it. The rule that applies
 * them is the HTTP endpoint's (HTTP-10); only the figures are hosted mode's.
 * @see SECURITY.md HOST-22
 */
import type { HttpSocketLimits } from '../transports/index.js';

export const HOSTED_SOCKET_LIMITS: HttpSocketLimits = {
  // A browser or MCP client behind a proxy sends its headers at once; 10 s covers a slow link.
  headersTimeoutMs: 10_000,
  // The largest body is a 1 MiB `/mcp` request; responses (event streams) are not counted.
  requestTimeoutMs: 30_000,
  // Each signed-in session may hold an event stream beside its requests.
  maxConnections: 1_024,
  // An idle kept-alive socket is closed after 5 s, and none serves more than 1000 requests.
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1_000,
};
