/**
 * One line read from stdio, judged the way the Streamable HTTP side judges a body. Pure.
 *
 * - Not JSON: `-32700` Parse error with id null (JSON-RPC 2.0 §5.1).
 * - JSON but not a JSON-RPC message (no `jsonrpc: "2.0"`, no `method`, a number...): `-32600`
 *   Invalid Request, with the message's id when it has a usable one, so the client stops waiting
 *   for it, else id null.
 * - An array is a JSON-RPC batch. MCP defines batches only in revision 2025-03-26: 2024-11-05
 *   has no batch type in its schema, 2025-06-18 removed them, and 2025-11-25 and 2026-07-28 have
 *   none. Elsewhere (and before a revision is negotiated) a batch is one Invalid Request. On
 *   2025-03-26 each element is judged alone; `initialize` MUST NOT be part of a batch there; an
 *   empty batch is an Invalid Request (JSON-RPC 2.0 §6).
 */
import { parseJSONRPCMessage, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';

/** An error answer to input that is not a usable message: its id is null when none could be read. */
export interface JsonRpcRefusal {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string };
}

/** The one revision whose schema has `JSONRPCBatchRequest`. */
const BATCH_REVISIONS: readonly string[] = ['2025-03-26'];

/** The same bound the SDK's HTTP transport puts on a batch. */
export const MAX_BATCH_LENGTH = 100;

const PARSE_ERROR_CODE = -32700;
export const INVALID_REQUEST_CODE = -32600;

export type LineReading =
  | { readonly kind: 'blank' }
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  | { readonly kind: 'refused'; readonly reply: JsonRpcRefusal }
  /** Valid elements go on; refused ones are answered inside the batch's array. */
  | {
      readonly kind: 'batch';
      readonly messages: readonly JSONRPCMessage[];
      readonly refusals: readonly JsonRpcRefusal[];
    };

/** `revision` is the negotiated protocol revision, `undefined` before `initialize`. */
export function readJsonRpcLine(line: string, revision: string | undefined): LineReading {
  if (line.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'refused', reply: refusal(null, PARSE_ERROR_CODE, 'Parse error: invalid JSON') };
  }
  if (!Array.isArray(value)) {
    const judged = judgeMessage(value);
    return judged.ok ? { kind: 'message', message: judged.message } : { kind: 'refused', reply: judged.reply };
  }
  if (revision === undefined || !BATCH_REVISIONS.includes(revision)) {
    const where = revision === undefined ? 'before initialization' : `on protocol revision ${revision}`;
    return {
      kind: 'refused',
      reply: refusal(null, INVALID_REQUEST_CODE, `Invalid Request: JSON-RPC batches are not supported ${where}`),
    };
  }
  if (value.length === 0)
    return { kind: 'refused', reply: refusal(null, INVALID_REQUEST_CODE, 'Invalid Request: empty batch') };
  if (value.length > MAX_BATCH_LENGTH) {
    return {
      kind: 'refused',
      reply: refusal(
        null,
        INVALID_REQUEST_CODE,
        `Invalid Request: a batch may hold at most ${MAX_BATCH_LENGTH} messages`,
      ),
    };
  }
  const messages: JSONRPCMessage[] = [];
  const refusals: JsonRpcRefusal[] = [];
  for (const element of value) {
    const judged = judgeMessage(element);
    if (!judged.ok) refusals.push(judged.reply);
    else if ('method' in judged.message && judged.message.method === 'initialize') {
      refusals.push(
        refusal(idOf(element), INVALID_REQUEST_CODE, 'Invalid Request: initialize must not be part of a batch'),
      );
    } else messages.push(judged.message);
  }
  return { kind: 'batch', messages, refusals };
}

/** The message as the SDK would read it, or the refusal to send instead. */
function judgeMessage(value: unknown): { ok: true; message: JSONRPCMessage } | { ok: false; reply: JsonRpcRefusal } {
  try {
    return { ok: true, message: parseJSONRPCMessage(value) };
  } catch {
    const reason =
      'Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0" and a method, or a result or an error)';
    return { ok: false, reply: refusal(idOf(value), INVALID_REQUEST_CODE, reason) };
  }
}

/** A usable id of an invalid message (JSON-RPC 2.0 §4: a string or a number), else null. */
function idOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as Record<string, unknown>)['id'];
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

export function refusal(id: RequestId | null, code: number, message: string): JsonRpcRefusal {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
