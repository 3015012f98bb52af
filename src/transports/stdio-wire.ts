/**
 * The stdio wire under the SDK's `serveStdio`: newline-delimited JSON-RPC on stdin and stdout,
 * like the SDK's own `StdioServerTransport`, except that what is not a message gets an answer
 * (see `jsonrpc-line.ts`), batches are handled as the negotiated revision says, and when stdin
 * ends the requests still running are given a short time to answer before the connection closes,
 * so that a client that closed its side while a call waited still reads why the call stopped.
 * stdout carries JSON-RPC only (STDIO-01).
 */
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { INVALID_REQUEST_CODE, readJsonRpcLine, refusal, type JsonRpcRefusal } from './jsonrpc-line.js';

export interface StdioWireOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Called once when stdin ends, before the wait for the running requests. */
  readonly onInputEnd?: () => void;
  /** How long the running requests may take to answer once stdin ended. */
  readonly drainMs: number;
  /** Called once the wire has closed, whoever closed it. */
  readonly onClosed?: () => void;
  readonly maxLineBytes?: number;
  /** Called once, when the answer to the host's first `tools/list` has been written while stdin is open. */
  readonly onFirstListAnswered?: () => void;
}

export interface StdioWire extends Transport {
  /** Settles once every request received so far is answered, or after `timeoutMs`. */
  whenAnswered(timeoutMs: number): Promise<void>;
}

interface OpenBatch {
  readonly waiting: Set<RequestId>;
  readonly replies: (JSONRPCMessage | JsonRpcRefusal)[];
}

export function createStdioWire(options: StdioWireOptions): StdioWire {
  const maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  let revision: string | undefined;
  let buffered = '';
  const decoder = new StringDecoder('utf8');
  /** Dropping the rest of a line that grew past `maxLineBytes`, up to its newline. */
  let skipping = false;
  let closed = false;
  let inputEnded = false;
  const running = new Set<RequestId>();
  const batches = new Set<OpenBatch>();
  let answeredWaiters: (() => void)[] = [];
  /** The id of the first `tools/list` while its answer is owed; null once it is written. */
  let firstList: RequestId | undefined | null;

  type Outgoing = JSONRPCMessage | JsonRpcRefusal;
  const write = (message: Outgoing | readonly Outgoing[]): Promise<void> =>
    new Promise((resolve, reject) => {
      if (closed) return resolve();
      const line = Array.isArray(message)
        ? `${JSON.stringify(message)}\n`
        : serializeMessage(message as JSONRPCMessage);
      options.output.write(line, (error) => (error ? reject(error) : resolve()));
    });

  const settleRequest = (id: RequestId) => {
    running.delete(id);
    if (running.size > 0) return;
    const waiters = answeredWaiters;
    answeredWaiters = [];
    for (const waiter of waiters) waiter();
  };

  const noteWritten = (messages: readonly Outgoing[]) => {
    // Once stdin has ended the host is leaving, and a closed wire wrote nothing.
    if (firstList === undefined || firstList === null || closed || inputEnded) return;
    // A response (no method) with the list's id; the server's own requests count their ids apart.
    const answersList = (message: Outgoing) => !('method' in message) && 'id' in message && message.id === firstList;
    if (!messages.some(answersList)) return;
    firstList = null;
    options.onFirstListAnswered?.();
  };

  const receive = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message)) {
      running.add(message.id);
      if (firstList === undefined && message.method === 'tools/list') firstList = message.id;
    }
    wire.onmessage?.(message);
  };

  const readLine = (line: string) => {
    const reading = readJsonRpcLine(line.replace(/\r$/, ''), revision);
    switch (reading.kind) {
      case 'blank':
        return;
      case 'message':
        return receive(reading.message);
      case 'refused':
        wire.onerror?.(new Error(reading.reply.error.message));
        void write(reading.reply).catch((error: unknown) => wire.onerror?.(toError(error)));
        return;
      case 'batch': {
        const waiting = new Set(reading.messages.filter(isJSONRPCRequest).map((request) => request.id));
        if (waiting.size === 0) {
          // Notifications and responses alone get no answer; refused elements still do (JSON-RPC 2.0 §6).
          if (reading.refusals.length > 0)
            void write(reading.refusals).catch((error: unknown) => wire.onerror?.(toError(error)));
        } else {
          batches.add({ waiting, replies: [...reading.refusals] });
        }
        for (const message of reading.messages) receive(message);
      }
    }
  };

  const onData = (chunk: Buffer | string) => {
    buffered += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (skipping) skipping = false;
      else readLine(line);
    }
    if (Buffer.byteLength(buffered) > maxLineBytes) {
      buffered = '';
      if (!skipping) {
        skipping = true;
        const reply = refusal(
          null,
          INVALID_REQUEST_CODE,
          `Invalid Request: a message may be at most ${maxLineBytes} bytes`,
        );
        void write(reply).catch((error: unknown) => wire.onerror?.(toError(error)));
      }
    }
  };

  const onInputEnd = () => {
    if (inputEnded || closed) return;
    inputEnded = true;
    options.onInputEnd?.();
    void wire.whenAnswered(options.drainMs).then(() => wire.close());
  };
  const onInputError = (error: Error) => wire.onerror?.(error);
  const onOutputError = (error: Error) => {
    if (closed) return;
    wire.onerror?.(error);
    void wire.close();
  };

  const wire: StdioWire = {
    async start() {
      options.input.on('data', onData);
      options.input.on('error', onInputError);
      options.input.once('end', onInputEnd);
      options.input.once('close', onInputEnd);
      options.output.on('error', onOutputError);
      if (options.input.readableEnded || options.input.destroyed) setImmediate(onInputEnd);
    },

    async send(message) {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        const id = message.id;
        if (id !== null && id !== undefined) {
          for (const batch of batches) {
            if (!batch.waiting.delete(id)) continue;
            batch.replies.push(message);
            if (batch.waiting.size === 0) {
              batches.delete(batch);
              await write(batch.replies);
              noteWritten(batch.replies);
            }
            settleRequest(id);
            return;
          }
          settleRequest(id);
        }
      }
      await write(message);
      noteWritten([message]);
    },

    setProtocolVersion(version) {
      revision = version;
    },

    whenAnswered(timeoutMs) {
      if (running.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        answeredWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      options.input.off('data', onData);
      options.input.off('error', onInputError);
      options.input.off('end', onInputEnd);
      options.input.off('close', onInputEnd);
      options.input.pause();
      wire.onclose?.();
      options.onClosed?.();
    },
  };
  return wire;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
