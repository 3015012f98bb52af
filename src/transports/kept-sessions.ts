/**
 * 2025-11-25 serving with sessions. On that revision the server asks the client things
 * (`elicitation/create` for sign-in and re-consent) on the response stream of a tool call, and the
 * client answers with a separate POST; only a session routes that answer back to the server
 * instance that is waiting for it. So each session gets its own server and transport, and no
 * message of one session can reach another (CVE-2026-25536).
 *
 * Session ids are 192 random bits and are not credentials: every request still carries the
 * bearer secret, and a session only answers to the caller whose secret opened it.
 *
 * With `sharing` (hosted mode), a session is a record in the shared store and any instance serves
 * it: one that gets a request of a session it does not hold makes a copy from the record, and the
 * messages that must reach another instance's copy (an answer to its elicitation, a notification
 * for the GET stream it holds) travel on the session's bus channel (`shared-session.ts`).
 * @see SECURITY.md HTTP-06, HTTP-07, SCL-30, SCL-31, SCL-32, SCL-33
 */
import { randomBytes } from 'node:crypto';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';
import {
  parseRelayEnvelope,
  parseSessionRecord,
  relayEnvelope,
  SESSION_NAMESPACE,
  SESSION_TTL_SECONDS,
  sessionChannel,
  sessionInitOf,
  tagOfWireId,
  type RelayEnvelope,
  type SessionRecord,
} from './session-record.js';
import { MAX_REQUEST_BODY_BYTES } from './http-limits.js';
import { readJsonBody, withParsedBody } from './read-json-body.js';
import {
  connectSessionCopy,
  initializeFromRecord,
  sessionPost,
  watchStreamEnd,
  type SessionSharing,
  type SharedSession,
} from './shared-session.js';

export interface KeptSessionsOptions {
  /** A fresh server for each new session. */
  readonly createServer: () => McpServer;
  /** Sessions kept at most; opening one more drops the least recently used. */
  readonly maxSessions: number;
  readonly onerror: (error: Error) => void;
  /** Shared records and a bus, so that any instance serves any session; in the process only when absent. */
  readonly sharing?: SessionSharing | undefined;
  /** A POST body this serves unread is read up to this many bytes; the default is the HTTP limit. */
  readonly maxRequestBodySize?: number;
}

export interface KeptSessions {
  /**
   * Serves one 2025-era request for `caller` (the fingerprint of the secret it presented);
   * `parsedBody` is its POST body already read, which is then not read again.
   */
  handle(request: Request, caller: string, parsedBody?: unknown): Promise<Response>;
  readonly size: number;
  closeAll(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly caller: string;
  readonly shared?: SharedSession;
}

const SESSION_ID_BYTES = 24;
/** A session in use has its record's expiry pushed back at most this often, not on every request. */
const REFRESH_EVERY_MS = 5 * 60 * 1000;

export function createKeptSessions({
  createServer,
  maxSessions,
  onerror,
  sharing,
  maxRequestBodySize = MAX_REQUEST_BODY_BYTES,
}: KeptSessionsOptions): KeptSessions {
  // A Map iterates in insertion order; re-inserting on use keeps it ordered by last use.
  const sessions = new Map<string, Session>();
  const restoring = new Map<string, Promise<Session | undefined>>();

  /** Forgets the session here only: other instances, and the record, keep it. */
  const drop = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await Promise.allSettled([session.shared?.unsubscribe(), session.transport.close(), session.server.close()]);
  };

  const keep = (id: string, session: Session) => {
    sessions.set(id, session);
    while (sessions.size > maxSessions) void drop(sessions.keys().next().value!);
  };

  /** The client ended the session here: every instance forgets it. */
  const end = async (id: string) => {
    await drop(id);
    if (!sharing) return;
    await sharing.store.remove(SESSION_NAMESPACE, id).catch(onerror);
    await publish(id, { kind: 'closed', from: sharing.instance }).catch(onerror);
  };

  const publish = async (id: string, envelope: RelayEnvelope): Promise<boolean> => {
    const message = relayEnvelope(envelope);
    if (message === undefined || !sharing) return false;
    await sharing.bus.publish(sessionChannel(id), message);
    return true;
  };

  const open = async (request: Request, caller: string, parsedBody: unknown): Promise<Response> => {
    const server = createServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(SESSION_ID_BYTES).toString('base64url'),
      onsessioninitialized: (id) => keep(id, { transport, server, caller }),
      onsessionclosed: (id) => void drop(id),
    });
    transport.onerror = onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request, withParsedBody(parsedBody));
    // Anything but an `initialize` (the transport answers it 400) leaves no session behind.
    if (transport.sessionId === undefined) await Promise.allSettled([transport.close(), server.close()]);
    return response;
  };

  /** A copy of a shared session, subscribed to its channel; the caller keeps it once initialized. */
  const copyOf = async (shared: SessionSharing, id: string, record: SessionRecord): Promise<Session> => {
    const copy = await connectSessionCopy({
      id,
      record,
      createServer,
      onerror,
      onclosed: (closed) => end(closed),
      routes: {
        holdsStream: () => copy.streams > 0,
        toStream: async (message) => void (await publish(id, { kind: 'to-stream', from: shared.instance, message })),
      },
    });
    copy.unsubscribe = await shared.bus.subscribe(
      sessionChannel(id),
      (value) => void receive(copy, parseRelayEnvelope(value)).catch(onerror),
    );
    return { transport: copy.transport.inner, server: copy.server, caller: record.caller, shared: copy };
  };

  /** What another instance relayed for this session's copy here. */
  const receive = async (copy: SharedSession, envelope: RelayEnvelope | undefined): Promise<void> => {
    if (envelope === undefined || envelope.from === sharing?.instance || sessions.get(copy.id)?.shared !== copy) return;
    if (envelope.kind === 'closed') return drop(copy.id);
    const { message } = envelope;
    if (envelope.kind === 'to-stream') {
      if (copy.streams > 0) await copy.transport.writeToStream(message);
      return;
    }
    // An answer goes to the copy whose request it answers; a notification to every copy.
    if (isAnswer(message) && tagOfWireId((message as { id: unknown }).id) !== copy.transport.tag) return;
    await (await copy.transport.inner.handleRequest(sessionPost(copy, message))).text();
  };

  const openShared = async (
    shared: SessionSharing,
    request: Request,
    caller: string,
    parsedBody: unknown,
  ): Promise<Response> => {
    const message = singleMessageIn(parsedBody);
    const init = message !== undefined && isInitializeRequest(message) ? sessionInitOf(message.params) : undefined;
    // The transport refuses what is not an `initialize`, as without sharing.
    if (init === undefined) return open(request, caller, parsedBody);
    const id = randomBytes(SESSION_ID_BYTES).toString('base64url');
    const record: SessionRecord = { caller, init };
    // In the store before the client learns the id: its next request may land on any instance.
    await shared.store.write(SESSION_NAMESPACE, id, { ...record }, { ttlSeconds: SESSION_TTL_SECONDS });
    const session = await copyOf(shared, id, record);
    const response = await session.transport.handleRequest(request, withParsedBody(parsedBody));
    if (session.transport.sessionId === id) keep(id, session);
    else {
      await Promise.allSettled([session.shared!.unsubscribe(), session.transport.close(), session.server.close()]);
      await shared.store.remove(SESSION_NAMESPACE, id);
    }
    return response;
  };

  /** The session made here again from its record, when it is the caller's; `undefined` otherwise. */
  const restore = (shared: SessionSharing, id: string, caller: string): Promise<Session | undefined> => {
    const pending = restoring.get(id);
    if (pending) return pending;
    const made = (async () => {
      const record = await readSessionRecord(shared, id);
      // Checked before anything is made or relayed: a session id alone opens nothing.
      if (record === undefined || record.caller !== caller) return undefined;
      const session = await copyOf(shared, id, record);
      try {
        await initializeFromRecord(session.shared!);
      } catch (error) {
        await Promise.allSettled([session.shared!.unsubscribe(), session.transport.close(), session.server.close()]);
        throw error;
      }
      keep(id, session);
      return session;
    })();
    restoring.set(id, made);
    return made.finally(() => restoring.delete(id));
  };

  const serveShared = async (
    shared: SessionSharing,
    session: Session & { shared: SharedSession },
    request: Request,
    parsedBody: unknown,
    justRestored: boolean,
  ): Promise<Response> => {
    const copy = session.shared;
    // The record decides, not the copy: a session ended or expired elsewhere is over here too,
    // even when the bus message saying so was lost.
    const record = justRestored ? copy.record : await readSessionRecord(shared, copy.id);
    if (record === undefined || record.caller !== session.caller) {
      await drop(copy.id);
      return sessionNotFound();
    }
    if (Date.now() - copy.refreshedAt > REFRESH_EVERY_MS) {
      copy.refreshedAt = Date.now();
      await shared.store.write(SESSION_NAMESPACE, copy.id, { ...copy.record }, { ttlSeconds: SESSION_TTL_SECONDS });
    }
    if (request.method === 'GET') {
      const response = await session.transport.handleRequest(request);
      if (response.status !== 200 || response.body === null) return response;
      copy.streams += 1;
      return watchStreamEnd(response, () => (copy.streams -= 1));
    }
    if (request.method !== 'POST') return session.transport.handleRequest(request);
    const message = singleMessageIn(parsedBody);
    if (message !== undefined && isAnswer(message)) {
      const tag = tagOfWireId((message as { id: unknown }).id);
      // An answer to another instance's request goes to it, and only to it.
      if (
        tag !== undefined &&
        tag !== copy.transport.tag &&
        (await publish(copy.id, { kind: 'to-server', from: shared.instance, message }))
      )
        return accepted();
    } else if (
      message !== undefined &&
      isJSONRPCNotification(message) &&
      message.method !== 'notifications/initialized'
    ) {
      // A cancellation names a request that may be running on any instance; every copy initialized itself.
      await publish(copy.id, { kind: 'to-server', from: shared.instance, message });
    }
    return session.transport.handleRequest(request, withParsedBody(parsedBody));
  };

  return {
    async handle(given, caller, givenBody) {
      const { request, parsedBody } =
        givenBody === undefined
          ? await readJsonBody(given, maxRequestBodySize)
          : { request: given, parsedBody: givenBody };
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        // Without a session there is no stream to open (GET) or end (DELETE).
        if (request.method !== 'POST') return notAllowed();
        return sharing ? openShared(sharing, request, caller, parsedBody) : open(request, caller, parsedBody);
      }
      let session = sessions.get(id);
      const justRestored = !session && sharing !== undefined && id.length <= 200;
      if (justRestored) session = await restore(sharing!, id, caller);
      // The same answer for an unknown session and another caller's, so neither is revealed.
      if (!session || session.caller !== caller) return sessionNotFound();
      sessions.delete(id);
      sessions.set(id, session);
      if (sharing && session.shared)
        return serveShared(sharing, session as Session & { shared: SharedSession }, request, parsedBody, justRestored);
      return session.transport.handleRequest(request, withParsedBody(parsedBody));
    },
    get size() {
      return sessions.size;
    },
    async closeAll() {
      await Promise.allSettled([...sessions.keys()].map(drop));
    },
  };
}

/** The session's record, when the store has one of its shape; one of another shape reads as absent (ST-17). */
async function readSessionRecord(shared: SessionSharing, id: string): Promise<SessionRecord | undefined> {
  const value = await shared.store.read(SESSION_NAMESPACE, id);
  const record = parseSessionRecord(value);
  if (value !== undefined && record === undefined) shared.store.misshapenRecord?.(SESSION_NAMESPACE);
  return record;
}

function isAnswer(message: JSONRPCMessage): boolean {
  return isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
}

/** Pure: the one JSON-RPC message a POST carries, or `undefined` for a batch or a body that is not JSON (the transport answers those). */
function singleMessageIn(value: unknown): JSONRPCMessage | undefined {
  return typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === '2.0'
    ? (value as JSONRPCMessage)
    : undefined;
}

function accepted(): Response {
  return new Response(null, { status: 202 });
}

function notAllowed(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
    { status: 405, headers: { allow: 'POST' } },
  );
}

/** MCP 2025-11-25 transports: an unknown session id is answered 404, and the client starts over. */
function sessionNotFound(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
    { status: 404 },
  );
}
