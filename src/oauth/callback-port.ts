/**
 * Which loopback port a consent attempt listens on: the configured one, which must be had, or
 * else the port of the stored registration's redirect URI, preferred so that the registration
 * still fits (RG-03) but given up when taken. Pure.
 */
import type { StoredClient } from './store-record.js';

export interface CallbackPortChoice {
  readonly preferredPort?: number;
  /** The configured port: the attempt fails rather than listen elsewhere. */
  readonly portIsFixed: boolean;
}

/** Pure: the port of the stored dynamic registration's redirect URI, when it names one. */
export function registeredPort(stored: StoredClient | undefined): number | undefined {
  const uri = stored?.kind === 'dynamic' ? stored.redirectUris[0] : undefined;
  const port = uri ? Number(new URL(uri).port) : NaN;
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/** Pure: the port to listen on, from `--callback-port` and the stored client. */
export function callbackPortChoice(
  configured: number | undefined,
  stored: StoredClient | undefined,
): CallbackPortChoice {
  const preferred = configured ?? registeredPort(stored);
  return { ...(preferred ? { preferredPort: preferred } : {}), portIsFixed: configured !== undefined };
}
