/**
 * Small messages between the instances that share a grant store: publish on a named channel, and
 * every subscriber of that channel, in any instance, gets a copy. Nothing is kept: a message no
 * one subscribes to is gone. The directory store serves one instance, so its bus stays in the
 * process; the Redis store's is Redis pub/sub (`redis-message-bus.ts`).
 */
import type { StoredValue } from './grant-store.js';
import { isObject } from './record-shape.js';

export type BusHandler = (message: StoredValue) => void;

export interface MessageBus {
  /** Sends `message` to every subscriber of `channel`; fails (STORE_UNAVAILABLE) when the bus is away. */
  publish(channel: string, message: StoredValue): Promise<void>;
  /** Calls `handler` with each message published on `channel` from now on; the result unsubscribes. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A published message larger than this is refused, and a received one dropped: the bus carries small JSON-RPC messages. */
export const MAX_BUS_MESSAGE_BYTES = 64 * 1024;

const CHANNEL = /^[a-z][a-z0-9-]{0,39}:[A-Za-z0-9_-]{1,100}$/;

/** Pure: whether a channel name is one the bus accepts (`kind:name`, names as in the store). */
export function isValidChannel(channel: string): boolean {
  return CHANNEL.test(channel);
}

/** Pure: the message as the text it travels as, or why it cannot travel. */
export function encodeBusMessage(message: StoredValue): { ok: true; text: string } | { ok: false; reason: string } {
  const text = JSON.stringify(message);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_BUS_MESSAGE_BYTES)
    return { ok: false, reason: `a bus message is ${bytes} bytes, over the ${MAX_BUS_MESSAGE_BYTES}-byte limit` };
  return { ok: true, text };
}

/** The bus of one instance: handlers run on a later tick, as they would with Redis, never inside `publish`. */
export function createInProcessBus(): MessageBus {
  const channels = new Map<string, Set<BusHandler>>();
  return {
    async publish(channel, message) {
      if (!isValidChannel(channel)) throw new RangeError(`not a bus channel: ${JSON.stringify(channel)}`);
      const encoded = encodeBusMessage(message);
      if (!encoded.ok) throw new RangeError(encoded.reason);
      for (const handler of channels.get(channel) ?? []) {
        // A copy as JSON, as a message that crossed Redis arrives: what JSON drops is dropped here too.
        const copy: unknown = JSON.parse(encoded.text);
        if (isObject(copy)) setImmediate(() => handler(copy));
      }
    },
    async subscribe(channel, handler) {
      if (!isValidChannel(channel)) throw new RangeError(`not a bus channel: ${JSON.stringify(channel)}`);
      const handlers = channels.get(channel) ?? new Set<BusHandler>();
      channels.set(channel, handlers);
      const own = (message: StoredValue) => handler(message);
      handlers.add(own);
      return async () => {
        handlers.delete(own);
        if (handlers.size === 0) channels.delete(channel);
      };
    },
    async close() {
      channels.clear();
    },
  };
}
