/** The endpoint's fixed shape, apart from the HTTP stack so that a stdio start never loads it. */
import type { Server } from 'node:http';
import { BODY_CAPS } from '../network/index.js';

export const MCP_PATH = '/mcp';

/** HTTP-06: far above any tool call's arguments, far below what could exhaust memory. */
export const MAX_REQUEST_BODY_BYTES = BODY_CAPS.mcpRequest;

/**
 * How long and how many, for the sockets of a local endpoint (HTTP-10). Node's defaults (60 s for
 * the headers, 300 s for the whole request, no connection cap) let a few slow or idle clients
 * hold the endpoint; a local client sends a request in milliseconds.
 * @see SECURITY.md HTTP-10
 */
export interface HttpSocketLimits {
  /** Until the request headers are complete; Node answers 408 and closes after it. */
  readonly headersTimeoutMs: number;
  /** Until the whole request, body included, is received (not the answer: streams stay open). */
  readonly requestTimeoutMs: number;
  /** Open connections at once; more are closed as they arrive. */
  readonly maxConnections: number;
  /** How long an idle kept-alive connection stays open between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Requests served on one kept-alive connection before it is closed; 0 means no cap. */
  readonly maxRequestsPerSocket: number;
}

export const DEFAULT_HTTP_SOCKET_LIMITS: HttpSocketLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Each 2025-11-25 session (at most 64) may keep a stream open beside its requests.
  maxConnections: 256,
  // Node's own keep-alive; a local client is the only one that could hold a socket.
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 0,
};

/**
 * Pure: the Node server options for `limits`. Node checks the timeouts only every
 * `connectionsCheckingInterval` (30 s by default), so the check runs often enough to honour them.
 */
export function nodeServerOptions(limits: HttpSocketLimits): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Applies what `createServer` options cannot carry: the connection cap and keep-alive bounds.
 * `onFirstDrop` runs once, at the first connection refused: a flood of connections must not
 * become a flood of log lines.
 */
export function applySocketLimits(server: Server, limits: HttpSocketLimits, onFirstDrop: () => void): void {
  server.maxConnections = limits.maxConnections;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  let dropped = 0;
  server.on('drop', () => {
    if (dropped++ === 0) onFirstDrop();
  });
}
