/**
 * Hosted mode's `/mcp`: one MCP endpoint per caller (one person through one client), made when
 * that caller first arrives, so that no server, session, pending elicitation or cache of one
 * person ever serves another. Callers are kept up to a cap and the least recently seen is closed
 * first. The caller is decided before this, by the bearer token check.
 * @see SECURITY.md HOST-14
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { SchoolServerFactory } from '../server/index.js';
import { MAX_REQUEST_BODY_BYTES } from './http-limits.js';
import { buildRefusal, sendRefusal, SERVED_METHODS } from './http-refusal.js';
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint.js';
import type { SessionSharing } from './shared-session.js';
import { storeUnavailableAnswer } from './store-unavailable.js';

/** What serving one caller needs, and what to release when the caller is dropped. */
export interface CallerRuntime {
  readonly factory: SchoolServerFactory;
  close(): Promise<void>;
}

export interface CallerEndpoints {
  /** Serves one request of `caller`; `open` makes the caller's runtime the first time it is seen. */
  handle(req: IncomingMessage, res: ServerResponse, caller: string, open: () => CallerRuntime): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  readonly runtime: CallerRuntime;
  readonly endpoint: McpEndpoint;
  readonly serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * A GET opens the standalone SSE stream, whose first event may come much later; Node sends the
 * status line only with the first body bytes, and a client that waits for it (the Python SDK)
 * would wait until the first keep-alive. So the head goes out as soon as it is written.
 */
function flushHeadersOnWriteHead(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const written = writeHead(...args);
    res.flushHeaders();
    return written;
  }) as ServerResponse['writeHead'];
}

export interface CallerEndpointsOptions {
  readonly maxCallers: number;
  readonly onerror: (error: Error) => void;
  /** The shared session records and bus of several instances; each caller's sessions stay in the process without it. */
  readonly sharing?: SessionSharing | undefined;
}

export function createCallerEndpoints(options: CallerEndpointsOptions): CallerEndpoints {
  const entries = new Map<string, Entry>();
  const release = async (entry: Entry) => {
    await entry.endpoint.close();
    await entry.runtime.close();
  };
  const entryFor = (caller: string, open: () => CallerRuntime): Entry => {
    const existing = entries.get(caller);
    if (existing) {
      entries.delete(caller);
      entries.set(caller, existing);
      return existing;
    }
    const runtime = open();
    const endpoint = createMcpEndpoint({ factory: runtime.factory, maxRequestBodySize: MAX_REQUEST_BODY_BYTES, maxSessions: 8, onerror: options.onerror, sharing: options.sharing });
    const node = toNodeHandler({ fetch: (request: Request) => endpoint.fetch(request, caller).catch(storeUnavailableAnswer) }, { maxRequestBodySize: MAX_REQUEST_BODY_BYTES, onerror: options.onerror });
    const entry: Entry = { runtime, endpoint, serve: async (req, res) => void (await node(req, res)) };
    entries.set(caller, entry);
    if (entries.size > options.maxCallers) {
      const [oldest, dropped] = entries.entries().next().value!;
      entries.delete(oldest);
      void release(dropped).catch(options.onerror);
    }
    return entry;
  };
  return {
    async handle(req, res, caller, open) {
      if (!(SERVED_METHODS as readonly string[]).includes(req.method ?? '')) return sendRefusal(res, buildRefusal(405));
      if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES) return sendRefusal(res, buildRefusal(413));
      if (req.method === 'GET') flushHeadersOnWriteHead(res);
      await entryFor(caller, open).serve(req, res);
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.allSettled(all.map(release));
    },
  };
}
