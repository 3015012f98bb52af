/**
 * The message bus of the Redis store: Redis pub/sub, with PUBLISH on the store's own connection
 * and SUBSCRIBE on a duplicate of it (a subscribed connection takes no other command). Like a
 * record, each message is sealed with the store key, bound to its channel and to an expiry a
 * minute ahead: whoever can reach Redis cannot make an instance deliver a message of their own,
 * move one to another channel, or replay one later. A message that does not open, or is over the
 * size bound, is dropped with one warning line.
 * @see SECURITY.md SCL-34
 */
import type { RedisClientType } from '@redis/client';
import type { Logger } from '../log.js';
import type { StoredValue } from './grant-store.js';
import {
  encodeBusMessage,
  isValidChannel,
  MAX_BUS_MESSAGE_BYTES,
  type BusHandler,
  type MessageBus,
} from './message-bus.js';
import { isObject } from './record-shape.js';
import { openRecord, parseSealedRecord, sealRecord, type RecordAddress } from './sealed-record.js';
import { storeUnavailable } from './store-errors.js';
import type { StoreKeyring } from './store-keys.js';

const CHANNEL_PREFIX = 'school-mcp:bus:';
/** Long enough for a busy Redis, short enough that a recorded message is soon worthless. */
const MESSAGE_LIFETIME_SECONDS = 60;
/** A sealed message is its base64url ciphertext and a small envelope: about 4/3 of the plaintext. */
const MAX_SEALED_BYTES = Math.ceil((MAX_BUS_MESSAGE_BYTES * 4) / 3) + 1024;

/** The store's client: no modules, functions or scripts, RESP2 (what `createClient` gives without them). */
type RedisClient = RedisClientType<{}, {}, {}, 2, {}>;

function addressOf(channel: string): RecordAddress {
  return { namespace: 'message-bus', name: channel };
}

/** Pure: the text PUBLISH carries for `message` on `channel`, or why it cannot be sent. */
export function sealBusMessage(
  channel: string,
  message: StoredValue,
  keyring: StoreKeyring,
  nowSeconds: number,
): { ok: true; text: string } | { ok: false; reason: string } {
  const encoded = encodeBusMessage(message);
  if (!encoded.ok) return encoded;
  return {
    ok: true,
    text: JSON.stringify(
      sealRecord(encoded.text, addressOf(channel), nowSeconds + MESSAGE_LIFETIME_SECONDS, keyring.current),
    ),
  };
}

/** Pure: the message a received text carries on `channel`, or why it is dropped. */
export function openBusMessage(
  channel: string,
  text: string,
  keyring: StoreKeyring,
  nowSeconds: number,
): { ok: true; message: StoredValue } | { ok: false; reason: string } {
  if (Buffer.byteLength(text, 'utf8') > MAX_SEALED_BYTES) return { ok: false, reason: 'it is over the size bound' };
  const sealed = parseSealedRecord(text);
  if (sealed === undefined) return { ok: false, reason: 'it is not a sealed message' };
  if (sealed.expiresAt === undefined || sealed.expiresAt <= nowSeconds) return { ok: false, reason: 'it has expired' };
  const opened = openRecord(sealed, addressOf(channel), keyring);
  if (!opened.ok) return opened;
  const value: unknown = JSON.parse(opened.plaintext);
  if (!isObject(value)) return { ok: false, reason: 'it is not a JSON object' };
  return { ok: true, message: value };
}

export interface RedisMessageBusOptions {
  readonly client: RedisClient;
  readonly keyring: StoreKeyring;
  readonly logger: Pick<Logger, 'warn'>;
  readonly nowSeconds: () => number;
}

export async function openRedisMessageBus({
  client,
  keyring,
  logger,
  nowSeconds,
}: RedisMessageBusOptions): Promise<MessageBus> {
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  try {
    await subscriber.connect();
  } catch (error) {
    if (subscriber.isOpen) subscriber.destroy();
    throw storeUnavailable('open its message bus', error);
  }
  let lastDrop = '';
  const deliver = (channel: string, handler: BusHandler) => (text: string) => {
    const opened = openBusMessage(channel, text, keyring, nowSeconds());
    if (opened.ok) return handler(opened.message);
    // One line per distinct reason, not one per message: a flood must not flood the log.
    if (opened.reason !== lastDrop) logger.warn('dropped a message of the Redis bus', { reason: opened.reason });
    lastDrop = opened.reason;
  };
  return {
    async publish(channel, message) {
      if (!isValidChannel(channel)) throw new RangeError(`not a bus channel: ${JSON.stringify(channel)}`);
      const sealed = sealBusMessage(channel, message, keyring, nowSeconds());
      if (!sealed.ok) throw new RangeError(sealed.reason);
      try {
        await client.publish(`${CHANNEL_PREFIX}${channel}`, sealed.text);
      } catch (error) {
        throw storeUnavailable('publish on its message bus', error);
      }
    },
    async subscribe(channel, handler) {
      if (!isValidChannel(channel)) throw new RangeError(`not a bus channel: ${JSON.stringify(channel)}`);
      const listener = deliver(channel, handler);
      try {
        await subscriber.subscribe(`${CHANNEL_PREFIX}${channel}`, listener);
      } catch (error) {
        throw storeUnavailable('subscribe on its message bus', error);
      }
      return async () => {
        await subscriber.unsubscribe(`${CHANNEL_PREFIX}${channel}`, listener).catch(() => undefined);
      };
    },
    async close() {
      if (subscriber.isOpen) await subscriber.close().catch(() => subscriber.destroy());
    },
  };
}
