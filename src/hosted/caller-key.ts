/**
 * Which MCP endpoint, and so which 2025-11-25 sessions, a request of a hosted caller reaches:
 * one person through one registered client, whatever grant its token belongs to. Pure.
 *
 * Why not the grant: a grant ends when the person signs out (on any client) or a client's refresh
 * token comes back rotated out, and the client then signs in again and gets a new grant for the
 * same person and client. A session holds no authority of its own (every request is checked on its
 * bearer token, and the tools act with the person's one school grant, read at each call); it holds
 * the conversation (the negotiated capabilities, a pending elicitation). Binding it to the grant
 * made a client that re-authenticates in the middle of a session (the Python SDK, mcp-remote)
 * lose that session and answer "Session not found". Bound to person and client it continues, and
 * is still never answered to another person, nor to another client of the same person (another
 * client id), on any instance (SECURITY.md HOST-61, SCL-31).
 *
 * The endpoint opened for the first grant serves the later ones: its `sign_out` revokes the grant
 * it was opened with, and the grant the client holds now ends with every other of the person's
 * through the person's generation (HOST-33).
 */
import type { HostedCaller } from './access-check.js';

export function callerKey(caller: Pick<HostedCaller, 'sub' | 'clientId'>): string {
  // JSON: no subject or client id, whatever characters it holds, makes two pairs read as one.
  return JSON.stringify([caller.sub, caller.clientId]);
}
