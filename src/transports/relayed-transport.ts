/**
 * The transport a shared 2025-11-25 session's server talks through on one instance: the SDK's
 * web-standard transport, with two things added at the message level. The server's own requests
 * (an `elicitation/create`) leave with ids prefixed by this copy's tag, and answers carrying that
 * tag come back with the server's id, so an answer that reached another instance can be relayed
 * here and matched. A message that belongs on the session's GET stream (a notification not tied
 * to a request, such as `notifications/elicitation/complete`) is written here when this instance
 * holds that stream, and handed to `toStream` (published for the instance that does) otherwise.
 * @see SECURITY.md SCL-33
 */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { localRequestId, wireRequestId } from './session-record.js';

export interface RelayedTransportRoutes {
  /** Whether this instance holds the session's GET stream now. */
  holdsStream(): boolean;
  /** Sends a message meant for the GET stream to the instance that holds it. */
  toStream(message: JSONRPCMessage): Promise<void>;
}

const isResponse = (message: JSONRPCMessage) => isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);

/** Pure: the message as it leaves, its request id (or the id a cancellation names) tagged. */
export function outgoingMessage(message: JSONRPCMessage, tag: string): JSONRPCMessage {
  if (isJSONRPCRequest(message)) return { ...message, id: wireRequestId(tag, message.id) };
  if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
    const params = message.params as { requestId?: string | number } | undefined;
    if (params?.requestId !== undefined)
      return { ...message, params: { ...params, requestId: wireRequestId(tag, params.requestId) } } as JSONRPCMessage;
  }
  return message;
}

/** Pure: the message as the server reads it, an answer to one of this copy's requests given back its own id. */
export function incomingMessage(message: JSONRPCMessage, tag: string): JSONRPCMessage {
  if (isResponse(message)) {
    const local = localRequestId(tag, (message as { id: unknown }).id);
    if (local !== undefined) return { ...message, id: local } as JSONRPCMessage;
  }
  if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
    const params = message.params as { requestId?: unknown } | undefined;
    const local = localRequestId(tag, params?.requestId);
    if (local !== undefined) return { ...message, params: { ...params, requestId: local } } as JSONRPCMessage;
  }
  return message;
}

export class RelayedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  constructor(
    readonly inner: WebStandardStreamableHTTPServerTransport,
    readonly tag: string,
    private readonly routes: RelayedTransportRoutes,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(incomingMessage(message, this.tag), extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions(versions);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const outgoing = outgoingMessage(message, this.tag);
    // What answers or accompanies a request goes on that request's stream, which is here.
    if (isResponse(message) || options?.relatedRequestId !== undefined || this.routes.holdsStream())
      return this.inner.send(outgoing, options);
    return this.routes.toStream(outgoing);
  }

  /** Writes a message another instance sent for the GET stream this instance holds. */
  async writeToStream(message: JSONRPCMessage): Promise<void> {
    await this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
