/**
 * What instances share about a 2025-11-25 session, pure: the record that lets any instance serve
 * it (whose it is, and what its client said in `initialize`), the channel its messages travel on,
 * the envelope of one relayed message with its size bound, and the ids that name which instance
 * sent a server-to-client request, so that the answer goes back to it.
 * @see SECURITY.md SCL-30, SCL-31, SCL-32, SCL-33
 */
import { createHash } from 'node:crypto';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';

/** The store namespace of session records. */
export const SESSION_NAMESPACE = 'mcp-sessions';
/** A session nobody used for this long is forgotten by every instance; each use pushes it back. */
export const SESSION_TTL_SECONDS = 60 * 60;
/** A relayed JSON-RPC message is small (an elicitation answer, a cancellation, a notification); a bigger one is not relayed. */
export const MAX_RELAYED_MESSAGE_BYTES = 32 * 1024;
/** The initialize parameters kept in a record, at most: a client's capabilities and name are small. */
const MAX_INIT_BYTES = 16 * 1024;

export interface SessionInit {
  readonly protocolVersion: string;
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: Record<string, unknown>;
}

export interface SessionRecord {
  /** Who opened it; the only caller it answers to. */
  readonly caller: string;
  readonly init: SessionInit;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Pure: the initialize parameters to keep, from an `initialize` request's `params`, when they have its shape. */
export function sessionInitOf(params: unknown): SessionInit | undefined {
  if (
    !isObject(params) ||
    typeof params.protocolVersion !== 'string' ||
    !isObject(params.capabilities) ||
    !isObject(params.clientInfo)
  )
    return undefined;
  if (typeof params.clientInfo.name !== 'string' || typeof params.clientInfo.version !== 'string') return undefined;
  const init = {
    protocolVersion: params.protocolVersion,
    capabilities: params.capabilities,
    clientInfo: params.clientInfo,
  };
  if (Buffer.byteLength(JSON.stringify(init), 'utf8') > MAX_INIT_BYTES) return undefined;
  return init;
}

/** Pure: the record from what the store gave back, or `undefined` when it is not one (ST-17). */
export function parseSessionRecord(value: unknown): SessionRecord | undefined {
  if (!isObject(value) || typeof value.caller !== 'string' || value.caller === '') return undefined;
  const init = sessionInitOf(value.init);
  return init === undefined ? undefined : { caller: value.caller, init };
}

/**
 * Pure: the channel of a session's messages. It is named by a hash of the session id, so whoever
 * lists channels learns no session id (and a session id is never a credential anyway).
 */
export function sessionChannel(sessionId: string): string {
  return `session:${createHash('sha256').update(sessionId, 'utf8').digest('base64url')}`;
}

/**
 * One relayed message: `to-server`, a message of the client for the instance it concerns (an
 * answer to its request, or a notification for every instance); `to-stream`, a message of the
 * server for whichever instance holds the session's GET stream; `closed`, the session was ended.
 */
export type RelayEnvelope =
  | { readonly kind: 'to-server' | 'to-stream'; readonly from: string; readonly message: JSONRPCMessage }
  | { readonly kind: 'closed'; readonly from: string };

function isMessage(value: unknown): value is JSONRPCMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') return false;
  return (
    isJSONRPCRequest(value) ||
    isJSONRPCNotification(value) ||
    isJSONRPCResultResponse(value) ||
    isJSONRPCErrorResponse(value)
  );
}

/** Pure: the envelope to publish, or `undefined` when its message is over the size bound. */
export function relayEnvelope(envelope: RelayEnvelope): Record<string, unknown> | undefined {
  if ('message' in envelope && Buffer.byteLength(JSON.stringify(envelope.message), 'utf8') > MAX_RELAYED_MESSAGE_BYTES)
    return undefined;
  return { ...envelope };
}

/** Pure: the envelope a received bus message carries, or `undefined` when it is not one (it is then ignored). */
export function parseRelayEnvelope(value: unknown): RelayEnvelope | undefined {
  if (!isObject(value) || typeof value.from !== 'string') return undefined;
  if (value.kind === 'closed') return { kind: 'closed', from: value.from };
  if (value.kind !== 'to-server' && value.kind !== 'to-stream') return undefined;
  if (!isMessage(value.message) || Buffer.byteLength(JSON.stringify(value.message), 'utf8') > MAX_RELAYED_MESSAGE_BYTES)
    return undefined;
  return { kind: value.kind, from: value.from, message: value.message };
}

/**
 * Each instance serving a session numbers its own server-to-client requests from 0, so on the
 * wire an id is prefixed with the tag of the serving copy: two instances never send the same id
 * in one session, and an answer names the copy that waits for it.
 */
export function wireRequestId(tag: string, id: string | number): string {
  return `${tag}.${id}`;
}

/** Pure: the tag a wire id names, or `undefined` when it is not one of ours. */
export function tagOfWireId(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

/** Pure: the server's own id behind a wire id of `tag`, or `undefined` when the id is not that copy's. */
export function localRequestId(tag: string, id: unknown): string | number | undefined {
  if (typeof id !== 'string' || !id.startsWith(`${tag}.`)) return undefined;
  const local = id.slice(tag.length + 1);
  return /^(0|[1-9]\d{0,15})$/.test(local) ? Number(local) : local;
}
