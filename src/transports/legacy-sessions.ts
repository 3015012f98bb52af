/**
 * 2025-11-25 serving with sessions. On that revision the server asks the client things
 * (`elicitation/create` for sign-in and re-consent) on the response stream of a tool call, and the
 * client answers with a separate POST; only a session routes that answer back to the server
 * instance that is waiting for it. So each session gets its own server and transport, and no
 * message of one session can reach another (CVE-2026-25536).
 *
 * Session ids are 192 random bits and are not credentials: every request still carries the
 * bearer secret, and a session only answers to the caller whose secret opened it.
 * @see SECURITY.md HTTP-06, HTTP-07
 */
import { randomBytes } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';

export interface LegacySessionsOptions {
  /** A fresh server for each new session. */
  readonly createServer: () => McpServer;
  /** Sessions kept at most; opening one more drops the least recently used. */
  readonly maxSessions: number;
  readonly onerror: (error: Error) => void;
}

export interface LegacySessions {
  /** Serves one 2025-era request for `caller` (the fingerprint of the secret it presented). */
  handle(request: Request, caller: string): Promise<Response>;
  readonly size: number;
  closeAll(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly caller: string;
}

const SESSION_ID_BYTES = 24;

export function createLegacySessions({ createServer, maxSessions, onerror }: LegacySessionsOptions): LegacySessions {
  // A Map iterates in insertion order; re-inserting on use keeps it ordered by last use.
  const sessions = new Map<string, Session>();

  const drop = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await Promise.allSettled([session.transport.close(), session.server.close()]);
  };

  const open = async (request: Request, caller: string): Promise<Response> => {
    const server = createServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(SESSION_ID_BYTES).toString('base64url'),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, caller });
        while (sessions.size > maxSessions) void drop(sessions.keys().next().value!);
      },
      onsessionclosed: (id) => void drop(id),
    });
    transport.onerror = onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // Anything but an `initialize` (the transport answers it 400) leaves no session behind.
    if (transport.sessionId === undefined) await Promise.allSettled([transport.close(), server.close()]);
    return response;
  };

  return {
    async handle(request, caller) {
      const id = request.headers.get('mcp-session-id');
      if (id === null) {
        // Without a session there is no stream to open (GET) or end (DELETE).
        if (request.method !== 'POST') return notAllowed();
        return open(request, caller);
      }
      const session = sessions.get(id);
      // The same answer for an unknown session and another caller's, so neither is revealed.
      if (!session || session.caller !== caller) return sessionNotFound();
      sessions.delete(id);
      sessions.set(id, session);
      return session.transport.handleRequest(request);
    },
    get size() {
      return sessions.size;
    },
    async closeAll() {
      await Promise.allSettled([...sessions.keys()].map(drop));
    },
  };
}

function notAllowed(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null },
    { status: 405, headers: { allow: 'POST' } },
  );
}

/** MCP 2025-11-25 transports: an unknown session id is answered 404, and the client starts over. */
function sessionNotFound(): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
}
