/**
 * Hosted mode's `/mcp`: one MCP endpoint per caller (one person through one client), made when
 * that caller first arrives, so that no server, session, pending elicitation or cache of one
 * person ever serves another. Callers are kept up to a cap per person and overall (`caller-admission.ts`).
 * The caller is decided before this, by the bearer token check.
 * @see SECURITY.md HOST-14, HOST-46
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { SchoolServerFactory } from '../server/index.js';
import { MAX_REQUEST_BODY_BYTES } from './http-limits.js';
import { admitCaller, type CallerAdmission, type CallerLimits } from './caller-admission.js';
import { buildRefusal, sendRefusal, SERVED_METHODS } from './http-refusal.js';
import { createMcpEndpoint, type McpEndpoint } from './mcp-endpoint.js';
import type { SessionSharing } from './shared-session.js';
import { storeUnavailableAnswer } from './store-unavailable.js';

/** What serving one caller needs, and what to release when the caller is dropped. */
export interface CallerRuntime {
  readonly factory: SchoolServerFactory;
  close(): Promise<void>;
}

/** Who calls: the caller (one person through one client connection) and the person. */
interface CallerIdentity {
  readonly caller: string;
  readonly person: string;
}

export interface CallerEndpoints {
  /** Serves one request of `who`; `open` makes the caller's runtime the first time it is seen. */
  handle(req: IncomingMessage, res: ServerResponse, who: CallerIdentity, open: () => CallerRuntime): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  readonly person: string;
  readonly runtime: CallerRuntime;
  readonly endpoint: McpEndpoint;
  readonly serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Requests and event streams of this caller still open. */
  open: number;
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

/** One person through a few clients and devices, each a connection of its own, with room to spare. */
const DEFAULT_MAX_CALLERS_PER_PERSON = 16;

export interface CallerEndpointsOptions {
  readonly maxCallers: number;
  /** Callers one person may hold at once (default 16): their further connections replace their own idle ones. */
  readonly maxCallersPerPerson?: number;
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
  const limits: CallerLimits = {
    maxCallers: options.maxCallers,
    maxCallersPerPerson: options.maxCallersPerPerson ?? DEFAULT_MAX_CALLERS_PER_PERSON,
  };
  /** The caller's entry, made (and an idle one dropped) if it is admitted; else the refusal. */
  const entryFor = (
    { caller, person }: CallerIdentity,
    open: () => CallerRuntime,
  ): Entry | Extract<CallerAdmission, { kind: 'refuse' }> => {
    const existing = entries.get(caller);
    if (existing) {
      entries.delete(caller);
      entries.set(caller, existing);
      return existing;
    }
    const admission = admitCaller(
      [...entries].map(([held, entry]) => ({ caller: held, person: entry.person, busy: entry.open > 0 })),
      person,
      limits,
    );
    if (admission.kind === 'refuse') return admission;
    if (admission.drop !== undefined) {
      const dropped = entries.get(admission.drop)!;
      entries.delete(admission.drop);
      void release(dropped).catch(options.onerror);
    }
    const runtime = open();
    const endpoint = createMcpEndpoint({
      factory: runtime.factory,
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
      maxSessions: 8,
      onerror: options.onerror,
      sharing: options.sharing,
    });
    const node = toNodeHandler(
      { fetch: (request: Request) => endpoint.fetch(request, caller).catch(storeUnavailableAnswer) },
      { maxRequestBodySize: MAX_REQUEST_BODY_BYTES, onerror: options.onerror },
    );
    const entry: Entry = {
      person,
      runtime,
      endpoint,
      serve: async (req, res) => {
        await node(req, res);
      },
      open: 0,
    };
    entries.set(caller, entry);
    return entry;
  };
  return {
    async handle(req, res, who, open) {
      if (!(SERVED_METHODS as readonly string[]).includes(req.method ?? '')) return sendRefusal(res, buildRefusal(405));
      if (Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES)
        return sendRefusal(res, buildRefusal(413));
      const entry = entryFor(who, open);
      if ('kind' in entry) {
        options.onerror(
          new Error(
            `refused a new MCP connection: ${entry.reason === 'person' ? 'this person has too many open' : 'every place is busy'}`,
          ),
        );
        return sendRefusal(
          res,
          entry.reason === 'person'
            ? buildRefusal(429, 'close another connection of yours, or retry later')
            : buildRefusal(503, 'this instance is full; retry later'),
        );
      }
      if (req.method === 'GET') flushHeadersOnWriteHead(res);
      // Busy until the response ends or its connection goes: an event stream keeps it busy while open.
      entry.open += 1;
      res.once('close', () => (entry.open -= 1));
      await entry.serve(req, res);
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.allSettled(all.map(release));
    },
  };
}
