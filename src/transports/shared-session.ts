/**
 * One 2025-11-25 session served by this instance when the session is shared between instances:
 * its server and transport, made either for a new `initialize` or again from the session's record
 * when a request of a session opened elsewhere lands here. A copy made again is initialized by
 * feeding its own transport the `initialize` request and `notifications/initialized` the record
 * keeps (the SDK's public path: the transport takes its session id and the server the client's
 * capabilities and protocol version from them), so the client is not asked anything again.
 * @see SECURITY.md SCL-30, SCL-31
 */
import { randomBytes } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';
import { RelayedTransport, type RelayedTransportRoutes } from './relayed-transport.js';
import type { SessionRecord } from './session-record.js';

/** The store the session records live in: the grant store's shape, seen from here. */
interface SessionRecordStore {
  read(namespace: string, name: string): Promise<{ readonly [field: string]: unknown } | undefined>;
  write(
    namespace: string,
    name: string,
    value: { readonly [field: string]: unknown },
    options?: { readonly ttlSeconds?: number },
  ): Promise<void>;
  remove(namespace: string, name: string): Promise<void>;
  /** Told of a record that is not a session record, which then reads as absent (ST-17). */
  misshapenRecord?(namespace: string): void;
}

/** The bus between instances: the grant store's message bus, seen from here. */
interface SessionBus {
  publish(channel: string, message: { readonly [field: string]: unknown }): Promise<void>;
  subscribe(
    channel: string,
    handler: (message: { readonly [field: string]: unknown }) => void,
  ): Promise<() => Promise<void>>;
}

/** What lets any instance serve any session: the shared records and the bus. */
export interface SessionSharing {
  readonly store: SessionRecordStore;
  readonly bus: SessionBus;
  /** This instance's name on the bus, so that it skips what it published itself. */
  readonly instance: string;
}

export interface SharedSession {
  readonly id: string;
  readonly record: SessionRecord;
  readonly server: McpServer;
  readonly transport: RelayedTransport;
  /** GET streams of the session open on this instance. */
  streams: number;
  /** When this instance last pushed the record's expiry back (ms since the epoch). */
  refreshedAt: number;
  unsubscribe: () => Promise<void>;
}

const TAG_BYTES = 6;

export interface SessionCopyOptions {
  readonly id: string;
  readonly record: SessionRecord;
  readonly createServer: () => McpServer;
  readonly routes: RelayedTransportRoutes;
  /** Called (and awaited) when the client ends the session with DELETE on this instance. */
  readonly onclosed: (id: string) => Promise<void>;
  readonly onerror: (error: Error) => void;
}

/** A server and transport for the session `id`, connected, not yet initialized. */
export async function connectSessionCopy({
  id,
  record,
  createServer,
  routes,
  onclosed,
  onerror,
}: SessionCopyOptions): Promise<SharedSession> {
  const server = createServer();
  const inner = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessionclosed: onclosed,
  });
  // A fresh tag for each copy: a late answer to a copy that was dropped matches no request of the next one.
  const transport = new RelayedTransport(inner, randomBytes(TAG_BYTES).toString('base64url'), routes);
  transport.onerror = onerror;
  await server.connect(transport);
  return { id, record, server, transport, streams: 0, refreshedAt: Date.now(), unsubscribe: async () => undefined };
}

/** A POST of one JSON-RPC message to the session, as a client of the session would send it. */
export function sessionPost(
  session: Pick<SharedSession, 'id' | 'record'>,
  message: JSONRPCMessage | Record<string, unknown>,
  withSessionId = true,
): Request {
  return new Request('http://session.invalid/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': session.record.init.protocolVersion,
      ...(withSessionId ? { 'mcp-session-id': session.id } : {}),
    },
    body: JSON.stringify(message),
  });
}

/** Initializes a copy from its record: `initialize` with the kept parameters, then `notifications/initialized`. */
export async function initializeFromRecord(session: SharedSession): Promise<void> {
  const answer = await session.transport.inner.handleRequest(
    sessionPost(session, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { ...session.record.init } }, false),
  );
  await answer.text();
  if (answer.status !== 200 || session.transport.sessionId !== session.id)
    throw new Error(`the session could not be made again here (initialize answered ${answer.status})`);
  await (
    await session.transport.inner.handleRequest(
      sessionPost(session, { jsonrpc: '2.0', method: 'notifications/initialized' }),
    )
  ).text();
}

/** The response with its body watched: `onEnd` runs once when the stream ends or the client goes. */
export function watchStreamEnd(response: Response, onEnd: () => void): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  let ended = false;
  const end = () => {
    if (!ended) onEnd();
    ended = true;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
