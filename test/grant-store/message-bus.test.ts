import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInProcessBus,
  openRedisStore,
  parseStoreKeys,
  parseStoreLocation,
  type MessageBus,
  type RedisGrantStore,
  type StoreKeyring,
} from '../../src/grant-store/index.js';
import { encodeBusMessage, isValidChannel, MAX_BUS_MESSAGE_BYTES } from '../../src/grant-store/message-bus.js';
import { openBusMessage, sealBusMessage } from '../../src/grant-store/redis-message-bus.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

function keyring(): StoreKeyring {
  const parsed = parseStoreKeys(randomBytes(32).toString('base64'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

/** Resolves with the next message `bus` delivers on `channel`. */
function nextMessage(
  bus: MessageBus,
  channel: string,
): Promise<{ message: Record<string, unknown>; unsubscribe: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    let unsubscribe: () => Promise<void> = async () => undefined;
    bus.subscribe(channel, (message) => resolve({ message, unsubscribe })).then((done) => (unsubscribe = done), reject);
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('bus messages (pure)', () => {
  const channel = 'session:abc';
  const now = 1_800_000_000;

  it('accepts channels shaped kind:name and nothing else', () => {
    expect(isValidChannel(channel)).toBe(true);
    for (const bad of ['session', 'Session:abc', 'session:a b', 'session:*', `session:${'a'.repeat(101)}`])
      expect(isValidChannel(bad)).toBe(false);
  });

  it('SCL-33 refuses a message over the size bound', () => {
    expect(encodeBusMessage({ text: 'x'.repeat(MAX_BUS_MESSAGE_BYTES) }).ok).toBe(false);
    expect(encodeBusMessage({ text: 'small' })).toEqual({ ok: true, text: '{"text":"small"}' });
  });

  it('SCL-34 seals a message to its channel and a minute: it opens there, and not on another channel, changed, late, or with another key', () => {
    const keys = keyring();
    const sealed = sealBusMessage(channel, { kind: 'closed', from: 'a' }, keys, now);
    if (!sealed.ok) throw new Error(sealed.reason);
    expect(sealed.text).not.toContain('closed');
    expect(openBusMessage(channel, sealed.text, keys, now + 59)).toEqual({
      ok: true,
      message: { kind: 'closed', from: 'a' },
    });
    expect(openBusMessage('session:other', sealed.text, keys, now).ok).toBe(false);
    expect(openBusMessage(channel, sealed.text, keys, now + 60)).toEqual({ ok: false, reason: 'it has expired' });
    expect(openBusMessage(channel, sealed.text, keyring(), now).ok).toBe(false);
    const envelope = JSON.parse(sealed.text) as { ciphertext: string; expiresAt: number };
    expect(
      openBusMessage(channel, JSON.stringify({ ...envelope, expiresAt: envelope.expiresAt + 3600 }), keys, now).ok,
    ).toBe(false);
    const flipped = `${envelope.ciphertext[0] === 'A' ? 'B' : 'A'}${envelope.ciphertext.slice(1)}`;
    expect(openBusMessage(channel, JSON.stringify({ ...envelope, ciphertext: flipped }), keys, now).ok).toBe(false);
    expect(openBusMessage(channel, '{"kind":"closed","from":"a"}', keys, now)).toEqual({
      ok: false,
      reason: 'it is not a sealed message',
    });
    expect(openBusMessage(channel, 'x'.repeat(200_000), keys, now)).toEqual({
      ok: false,
      reason: 'it is over the size bound',
    });
  });
});

describe('the in-process bus', () => {
  it('delivers a copy to every subscriber of the channel on a later tick, and nothing after unsubscribing', async () => {
    const bus = createInProcessBus();
    const seen: unknown[] = [];
    const unsubscribe = await bus.subscribe('session:one', (message) => seen.push(message));
    await bus.subscribe('session:two', () => seen.push('wrong channel'));
    const sent = { kind: 'closed', from: 'a' };
    await bus.publish('session:one', sent);
    expect(seen).toEqual([]);
    await until(() => seen.length === 1, 'delivery');
    expect(seen[0]).toEqual(sent);
    expect(seen[0]).not.toBe(sent);
    await unsubscribe();
    await bus.publish('session:one', sent);
    const after = nextMessage(bus, 'session:one');
    await bus.publish('session:one', { kind: 'marker' });
    expect((await after).message).toEqual({ kind: 'marker' });
    expect(seen).toHaveLength(1);
  });

  it('SCL-33 refuses to publish a message over the size bound or on a channel that is not one', async () => {
    const bus = createInProcessBus();
    await expect(bus.publish('session:one', { text: 'x'.repeat(MAX_BUS_MESSAGE_BYTES) })).rejects.toThrow(/over the/);
    await expect(bus.publish('not a channel', {})).rejects.toThrow(RangeError);
  });
});

describeWithRedis('the Redis bus', () => {
  let server: RedisServer;
  const stores: RedisGrantStore[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await server?.close();
  });

  async function open(
    keys: StoreKeyring,
    warnings: string[] = [],
  ): Promise<{ store: RedisGrantStore; bus: MessageBus }> {
    const parsed = parseStoreLocation(server.url);
    if (!parsed.ok || parsed.location.kind !== 'redis') throw new Error('not a Redis URL');
    const store = await openRedisStore({
      address: parsed.location.address,
      keyring: keys,
      logger: { warn: (message) => warnings.push(message) },
    });
    stores.push(store);
    const bus = await store.openMessageBus();
    return { store, bus };
  }

  it('SCL-34 carries a message from one instance to another sealed, and drops with one warning what was published on the channel without the store key', async () => {
    const keys = keyring();
    const warnings: string[] = [];
    const [a, b] = [await open(keys), await open(keys, warnings)];
    const raw = createClient({ url: server.url });
    raw.on('error', () => undefined);
    await raw.connect();
    const seenOnWire: string[] = [];
    const spy = raw.duplicate();
    await spy.connect();
    await spy.pSubscribe('school-mcp:bus:*', (text) => seenOnWire.push(text));
    try {
      const received: Record<string, unknown>[] = [];
      await b.bus.subscribe('session:abc', (message) => received.push(message));
      // Forged by whoever can reach Redis: plain, and sealed with another key.
      await raw.publish('school-mcp:bus:session:abc', JSON.stringify({ kind: 'closed', from: 'mallory' }));
      await raw.publish('school-mcp:bus:session:abc', JSON.stringify({ kind: 'closed', from: 'mallory' }));
      const other = sealBusMessage(
        'session:abc',
        { kind: 'closed', from: 'mallory' },
        keyring(),
        Math.floor(Date.now() / 1000),
      );
      if (other.ok) await raw.publish('school-mcp:bus:session:abc', other.text);
      await a.bus.publish('session:abc', { kind: 'to-server', from: 'a', secret: 'canary-7d1f' });
      await until(() => received.length > 0, 'the genuine message');
      expect(received).toEqual([{ kind: 'to-server', from: 'a', secret: 'canary-7d1f' }]);
      expect(warnings.filter((line) => line.includes('dropped a message'))).toHaveLength(2);
      await until(() => seenOnWire.length === 4, 'the spy seeing every message');
      expect(seenOnWire.some((text) => text.includes('canary-7d1f'))).toBe(false);
    } finally {
      await spy.close();
      raw.destroy();
    }
  });

  it('SCL-34 fails a publish fast with STORE_UNAVAILABLE when Redis is away, and delivers again once it is back', async () => {
    const keys = keyring();
    const [a, b] = [await open(keys), await open(keys)];
    const received: Record<string, unknown>[] = [];
    await b.bus.subscribe('session:back', (message) => received.push(message));
    await server.stop();
    try {
      await expect(a.bus.publish('session:back', { kind: 'closed', from: 'a' })).rejects.toMatchObject({
        code: 'STORE_UNAVAILABLE',
      });
    } finally {
      await server.restart();
    }
    // Both connections come back by themselves, the subscriber with its subscriptions.
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) {
      await a.bus.publish('session:back', { kind: 'closed', from: 'a' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(received[0]).toEqual({ kind: 'closed', from: 'a' });
  });
});
