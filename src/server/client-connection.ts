/**
 * What a tool call can learn about the client on the other end, per server instance: the
 * protocol era of the request, what the client declared it can do, and how to tell it that an
 * out-of-band interaction finished.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * `stateless`: 2026-07-28 requests, each carrying its protocol version in its envelope, with no
 * session; `sessionful`: the 2025 revisions, whose requests belong to the session `initialize` opened.
 */
export type ProtocolEra = 'sessionful' | 'stateless';

export interface ClientConnection {
  era(context: ServerContext): ProtocolEra;
  /** The protocol revision of the request: its envelope's on 2026-07-28, else what `initialize` negotiated. */
  revision(context: ServerContext): string | undefined;
  /** On 2026-07-28 requests, their own envelope; on 2025-11-25, what `initialize` declared. */
  capabilities(context: ServerContext): ClientCapabilities | undefined;
  /** Sends `notifications/elicitation/complete` for a 2025-11-25 URL elicitation. */
  elicitationComplete(elicitationId: string): Promise<void>;
}

export function clientConnectionOf(server: McpServer): ClientConnection {
  const envelopeOf = (context: ServerContext) => context.mcpReq.envelope as Record<string, unknown> | undefined;
  return {
    // Every 2026-07-28 request carries its protocol version in the envelope; 2025 ones never do.
    era: (context) => (envelopeOf(context)?.[PROTOCOL_VERSION_META_KEY] === undefined ? 'sessionful' : 'stateless'),
    revision(context) {
      const claimed = envelopeOf(context)?.[PROTOCOL_VERSION_META_KEY];
      return typeof claimed === 'string' ? claimed : server.server.getNegotiatedProtocolVersion();
    },
    capabilities(context) {
      const envelope = envelopeOf(context);
      if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined)
        return envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
      return server.server.getClientCapabilities();
    },
    elicitationComplete: (elicitationId) => server.server.createElicitationCompletionNotifier(elicitationId)(),
  };
}
