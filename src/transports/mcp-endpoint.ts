/**
 * The MCP endpoint behind the guards, in the web-standard `fetch` shape: 2026-07-28 requests go to
 * the SDK's per-request handler (a fresh server for every request, nothing shared between
 * requests), 2025-11-25 requests to the sessions that era needs for elicitation.
 * @see SECURITY.md HTTP-06, HTTP-07
 */
import { createMcpHandler, isJsonContentType, isLegacyRequest } from '@modelcontextprotocol/server';
import type { SchoolServerFactory } from '../server/index.js';
import { createKeptSessions } from './kept-sessions.js';
import { readJsonBody, withParsedBody } from './read-json-body.js';
import type { SessionSharing } from './shared-session.js';

export interface McpEndpointOptions {
  readonly factory: SchoolServerFactory;
  /** Bodies above this are answered 413 before anything is parsed. */
  readonly maxRequestBodySize: number;
  readonly maxSessions: number;
  readonly onerror: (error: Error) => void;
  /** Lets any instance serve a 2025-11-25 session (hosted mode); sessions stay in the process without it. */
  readonly sharing?: SessionSharing | undefined;
}

export interface McpEndpoint {
  /** Serves one request that passed the guards; `caller` identifies the secret it presented. */
  fetch(request: Request, caller: string): Promise<Response>;
  readonly keptSessionCount: number;
  close(): Promise<void>;
}

export function createMcpEndpoint({
  factory,
  maxRequestBodySize,
  maxSessions,
  onerror,
  sharing,
}: McpEndpointOptions): McpEndpoint {
  const stateless = createMcpHandler(() => factory(), { legacy: 'reject', maxRequestBodySize, onerror });
  const kept = createKeptSessions({ createServer: factory, maxSessions, onerror, sharing, maxRequestBodySize });
  return {
    async fetch(request, caller) {
      // Routing by hand leaves this check to us (the SDK's `isLegacyRequest` contract).
      if (request.method === 'POST' && !isJsonContentType(request.headers.get('content-type')))
        return unsupportedMediaType();
      const { request: readable, parsedBody } = await readJsonBody(request, maxRequestBodySize);
      if (await isLegacyRequest(readable, parsedBody, { maxRequestBodySize }))
        return kept.handle(readable, caller, parsedBody);
      return stateless.fetch(readable, withParsedBody(parsedBody));
    },
    get keptSessionCount() {
      return kept.size;
    },
    async close() {
      await Promise.allSettled([stateless.close(), kept.closeAll()]);
    },
  };
}

function unsupportedMediaType(): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' },
      id: null,
    },
    { status: 415 },
  );
}
