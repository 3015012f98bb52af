/**
 * Which HTTP client carries which request; this is the one place that decides it.
 *
 * - Every request that carries a secret (the sign-in: discovery, registration, the code
 *   exchange, refresh, revocation, introspection, userinfo; and every API call with its bearer
 *   token) goes over undici 7, the version pinned in package.json, through agents with our own
 *   connect, header and body time limits: `undiciFetch` for openid-client, undici's `request`
 *   (`loadUndici`) for the executor, which reads and decompresses the body itself.
 * - The one request without a secret, the GET of the OpenAPI document at start, goes over
 *   Node's own `http` and `https` clients (`documentFetch`, `document-fetch.ts`), which cost
 *   next to nothing to load: `tools/list` is answered without waiting for undici 7, or for the
 *   undici inside Node that its global `fetch` loads on first use. It gets the same no-redirect
 *   rule, time limit and body cap from the document loader.
 * undici 7 is loaded on first use, not at start: a signed-in start sends nothing before the
 * first tool call, and it is the largest module on the start-up path. A stdio server loads it
 * once the host has its tool list, while it waits for the first call (`app/call-warm-up.ts`).
 */
import type { FetchLike } from './fetch-like.js';
import { publicAddressLookup } from './public-address.js';

let undici: Promise<typeof import('undici')> | undefined;

export function loadUndici(): Promise<typeof import('undici')> {
  // A failed load is not kept: the next request tries again.
  return (undici ??= import('undici').catch((error: unknown) => {
    undici = undefined;
    throw error;
  }));
}

export interface AgentTimeouts {
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

/**
 * undici 7's fetch over one agent of its own, made on the first request; with `publicAddressesOnly`,
 * a name that resolves to a private, loopback or link-local address is not connected to.
 */
export function undiciFetch(
  timeouts: AgentTimeouts,
  agentRules: { readonly publicAddressesOnly?: boolean } = {},
): FetchLike {
  let agent: import('undici').Agent | undefined;
  return async (url, init) => {
    const module = await loadUndici();
    const connect = {
      timeout: timeouts.connectTimeoutMs,
      ...(agentRules.publicAddressesOnly ? { lookup: publicAddressLookup } : {}),
    };
    agent ??= new module.Agent({
      connect,
      headersTimeout: timeouts.headersTimeoutMs,
      bodyTimeout: timeouts.bodyTimeoutMs,
    });
    const options = { ...(init as Record<string, unknown>), dispatcher: agent } as Parameters<typeof module.fetch>[1];
    return module.fetch(url, options) as unknown as Promise<Response>;
  };
}
