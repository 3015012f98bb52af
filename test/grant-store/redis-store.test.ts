import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import {
  openRedisStore,
  parseStoreKeys,
  parseStoreLocation,
  type RedisGrantStore,
  type StoreKeyring,
} from '../../src/grant-store/index.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  expectFencedWrites,
  expectReplaceOnly,
  expectLockHeldOnce,
  expectLockRunsOut,
  expectOneCreatorWins,
  expectOneWinnerPerRound,
  expectRecordsKeptApart,
} from './support/store-contract.js';
import { redisLockKeys, redisRecordKey } from '../../src/grant-store/redis-keys.js';
import { sealRecord } from '../../src/grant-store/sealed-record.js';
import type { RedisStoreAddress } from '../../src/grant-store/redis-store-url.js';

function keyring(...keys: Buffer[]): StoreKeyring {
  const parsed = parseStoreKeys(keys.map((bytes) => bytes.toString('base64')).join(' '));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

function addressOf(url: string): RedisStoreAddress {
  const parsed = parseStoreLocation(url);
  if (!parsed.ok || parsed.location.kind !== 'redis') throw new Error(`not a Redis URL: ${url}`);
  return parsed.location.address;
}

const opened: RedisGrantStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

interface Harness {
  store: RedisGrantStore;
  warnings: string[];
  /** Debug lines: where a lost connection is told, once per distinct failure. */
  debugLines: string[];
  clock: { now: number };
}

async function openStore(
  server: RedisServer,
  options: { keys?: StoreKeyring; password?: string; timeoutMs?: number } = {},
): Promise<Harness> {
  const warnings: string[] = [];
  const debugLines: string[] = [];
  const clock = { now: Math.floor(Date.now() / 1000) };
  const store = await openRedisStore({
    address: addressOf(server.url),
    password: options.password,
    keyring: options.keys ?? keyring(randomBytes(32)),
    logger: { warn: (message) => warnings.push(message), debug: (message) => debugLines.push(message) },
    nowSeconds: () => clock.now,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  opened.push(store);
  return { store, warnings, debugLines, clock };
}

/** A plain client, to look at what the store left in Redis as an attacker with Redis access would. */
async function rawClient(server: RedisServer, password?: string) {
  const client = createClient({ url: server.url, ...(password === undefined ? {} : { password }) });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describeWithRedis('the Redis grant store', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps one record per name and namespace, replaced as a whole, removed on request; sweep leaves expiry to Redis', async () => {
    const { store } = await openStore(server);
    await expectRecordsKeptApart(store);
    expect(await store.sweep()).toBe(0);
  });

  it('SCL-10 gives a lock to one holder among the instances on one Redis, releases it to the next with a greater fence, and lets it run out', async () => {
    const keys = keyring(randomBytes(32));
    const stores = (
      await Promise.all([openStore(server, { keys }), openStore(server, { keys }), openStore(server, { keys })])
    ).map((harness) => harness.store);
    await expectLockHeldOnce(stores[0]!, stores[1]!);
    await expectOneWinnerPerRound(stores);
    await expectLockRunsOut(stores[1]!, stores[2]!);
    const client = await rawClient(server);
    try {
      const lockKeys = redisLockKeys('school-grant', 'usr_abandoned');
      // The lock key expires by itself, and its owner value is random, not the holder's name.
      const fresh = await stores[0]!.lock('school-grant', 'usr_abandoned', { ttlMs: 60_000 });
      expect(await client.pTTL(lockKeys.lock)).toBeGreaterThan(50_000);
      expect(await client.get(lockKeys.lock)).not.toContain('usr_abandoned');
      expect(await client.pTTL(lockKeys.fence)).toBeGreaterThan(0);
      await fresh!.release();
      expect(await client.exists(lockKeys.lock)).toBe(0);
    } finally {
      client.destroy();
    }
  });

  it('SCL-11 refuses a fenced write once a greater fence wrote, or over a removed record when told to replace only, in one script on the server, and starts a lost fence counter above the record', async () => {
    const keys = keyring(randomBytes(32));
    const [first, second] = await Promise.all([openStore(server, { keys }), openStore(server, { keys })]);
    await expectFencedWrites(first.store, second.store);
    await expectReplaceOnly(second.store);
    const lock = await first.store.lock('school-grant', 'usr_cleared', { ttlMs: 60_000 });
    expect(await first.store.writeFenced('school-grant', 'usr_cleared', { n: 1 }, lock!.fence + 40)).toBe(true);
    await lock!.release();
    const client = await rawClient(server);
    try {
      await client.del(redisLockKeys('school-grant', 'usr_cleared').fence);
    } finally {
      client.destroy();
    }
    const after = await second.store.lock('school-grant', 'usr_cleared', { ttlMs: 60_000 });
    expect(after!.fence).toBe(lock!.fence + 41);
    expect(await second.store.writeFenced('school-grant', 'usr_cleared', { n: 2 }, after!.fence)).toBe(true);
  });

  it('HST-07 keeps no record name and no value in the clear in Redis: keys are hashes under school-mcp:, values sealed', async () => {
    const { store } = await openStore(server);
    const canary = `canary-${randomBytes(8).toString('hex')}`;
    await store.write('school-grant', 'usr_owner_ada', { access_token: canary });
    await store.write('client', `token-${canary}`, { refresh_token: canary }, { ttlSeconds: 600 });
    const client = await rawClient(server);
    try {
      const keys = await client.keys('*');
      expect(keys).toContain(redisRecordKey('school-grant', 'usr_owner_ada').key);
      expect(keys).toContain(redisRecordKey('client', `token-${canary}`).key);
      for (const key of keys) {
        expect(key.startsWith('school-mcp:')).toBe(true);
        expect(key).not.toContain('usr_owner_ada');
        expect(key).not.toContain(canary);
        const value = (await client.get(key)) ?? '';
        // A lock's fence counter is a bare number and a lock's value a random owner (SCL-10).
        if (key.startsWith('school-mcp:fence:')) {
          expect(value).toMatch(/^\d+$/);
          continue;
        }
        if (key.startsWith('school-mcp:lock:')) {
          expect(value).toMatch(/^[\w-]{22}$/);
          continue;
        }
        expect(value).toMatch(/"ciphertext"/);
        expect(value).not.toContain(canary);
      }
    } finally {
      client.destroy();
    }
  });

  it('ST-17 answers as absent a record whose seal opens but holds no record, and says so without its content', async () => {
    const keys = keyring(randomBytes(32));
    const { store, warnings } = await openStore(server, { keys });
    const client = await rawClient(server);
    try {
      const { key, address } = redisRecordKey('school-grant', 'usr_owner_ada');
      await client.set(
        key,
        JSON.stringify(sealRecord(JSON.stringify({ value: ['ada'] }), address, undefined, keys.current)),
      );
      expect(await store.read('school-grant', 'usr_owner_ada')).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/did not open/);
      expect(warnings.join('\n')).not.toContain('ada');
    } finally {
      client.destroy();
    }
  });

  it("HST-07 answers as absent a record copied in Redis over another user's, and a record changed in any byte", async () => {
    const { store, warnings } = await openStore(server);
    await store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    await store.write('school-grant', 'usr_lecturer_grace', { who: 'grace' });
    const client = await rawClient(server);
    try {
      const ada = redisRecordKey('school-grant', 'usr_owner_ada').key;
      await client.set(redisRecordKey('school-grant', 'usr_lecturer_grace').key, (await client.get(ada))!);
      await client.set(redisRecordKey('client', 'usr_owner_ada').key, (await client.get(ada))!);
      expect(await store.read('school-grant', 'usr_lecturer_grace')).toBeUndefined();
      expect(await store.read('client', 'usr_owner_ada')).toBeUndefined();
      expect(warnings.join('\n')).toMatch(/did not open/);
      expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
    } finally {
      client.destroy();
    }
  });

  it('HST-07 seals with the first key, opens with the older ones and seals again, and refuses a record whose key is gone', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = await openStore(server, { keys: keyring(older) });
    await before.store.write('school-grant', 'usr_rotated', { who: 'ada' });
    const during = await openStore(server, { keys: keyring(newer, older) });
    expect(await during.store.read('school-grant', 'usr_rotated')).toEqual({ who: 'ada' });
    const after = await openStore(server, { keys: keyring(newer) });
    expect(await after.store.read('school-grant', 'usr_rotated')).toEqual({ who: 'ada' });
    await expect(before.store.read('school-grant', 'usr_rotated')).rejects.toMatchObject({
      code: 'STORE_RECORD_UNREADABLE',
    });
  });

  it('HST-08 reseals a record under the new key keeping its TTL, and never revives one that another instance took meanwhile', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = await openStore(server, { keys: keyring(older) });
    const during = await openStore(server, { keys: keyring(newer, older) });
    const client = await rawClient(server);
    try {
      await before.store.write('pending', 'rotating', { n: 1 }, { ttlSeconds: 600 });
      const key = redisRecordKey('pending', 'rotating').key;
      expect(await during.store.read('pending', 'rotating')).toEqual({ n: 1 });
      expect(JSON.parse((await client.get(key))!).keyId).toBe(keyring(newer).current.id);
      expect(await client.ttl(key)).toBeGreaterThan(500);
      for (let round = 0; round < 10; round += 1) {
        await before.store.write('pending', `race-${round}`, { round }, { ttlSeconds: 600 });
        const [, taken] = await Promise.all([
          during.store.read('pending', `race-${round}`),
          during.store.take('pending', `race-${round}`),
          during.store.read('pending', `race-${round}`),
        ]);
        expect(taken).toEqual({ round });
        expect(await client.exists(redisRecordKey('pending', `race-${round}`).key)).toBe(0);
      }
    } finally {
      client.destroy();
    }
  });

  it('HST-09 gives up at start, with STORE_UNAVAILABLE, on a server that accepts the connection and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await expect(
        openRedisStore({
          address: addressOf(`redis://127.0.0.1:${port}/0`),
          keyring: keyring(randomBytes(32)),
          logger: { warn: () => undefined },
          timeoutMs: 300,
        }),
      ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('HST-08 gives each record its TTL in Redis, which expires it, and never returns a record past its sealed expiry', async () => {
    const { store, clock } = await openStore(server);
    await store.write('code', 'c-long', { n: 1 }, { ttlSeconds: 600 });
    await store.write('code', 'c-short', { n: 2 }, { ttlSeconds: 1 });
    await store.write('client', 'forever', { n: 3 });
    const client = await rawClient(server);
    try {
      const ttl = await client.ttl(redisRecordKey('code', 'c-long').key);
      expect(ttl).toBeGreaterThan(500);
      expect(ttl).toBeLessThanOrEqual(600);
      expect(await client.ttl(redisRecordKey('client', 'forever').key)).toBe(-1);
      await vi.waitFor(async () => expect(await client.exists(redisRecordKey('code', 'c-short').key)).toBe(0), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      client.destroy();
    }
    expect(await store.read('code', 'c-short')).toBeUndefined();
    expect(await store.read('code', 'c-long')).toEqual({ n: 1 });
    clock.now += 600;
    expect(await store.read('code', 'c-long')).toBeUndefined();
    expect(await store.read('client', 'forever')).toEqual({ n: 3 });
  });

  it('creates a record only where there is none (SET NX), keeping its TTL: of instances racing to create it, one wins', async () => {
    const keys = keyring(randomBytes(32));
    const instances = await Promise.all([
      openStore(server, { keys }),
      openStore(server, { keys }),
      openStore(server, { keys }),
    ]);
    await expectOneCreatorWins(instances.map((instance) => instance.store));
    expect(await instances[0]!.store.writeIfAbsent('code', 'short-lived', { n: 1 }, { ttlSeconds: 600 })).toBe(true);
    const client = await rawClient(server);
    try {
      expect(await client.ttl(redisRecordKey('code', 'short-lived').key)).toBeGreaterThan(500);
    } finally {
      client.destroy();
    }
  });

  it('HST-08 gives a record taken once to one taker only, however many instances race for it', async () => {
    const keys = keyring(randomBytes(32));
    const instances = await Promise.all([
      openStore(server, { keys }),
      openStore(server, { keys }),
      openStore(server, { keys }),
    ]);
    for (let round = 0; round < 5; round += 1) {
      await instances[0]!.store.write('pending', `once-${round}`, { round }, { ttlSeconds: 60 });
      const takes = await Promise.all(
        Array.from({ length: 12 }, (_, index) => instances[index % 3]!.store.take('pending', `once-${round}`)),
      );
      expect(takes.filter((taken) => taken !== undefined)).toEqual([{ round }]);
      expect(await instances[1]!.store.read('pending', `once-${round}`)).toBeUndefined();
    }
  });
});

describeWithRedis('the Redis grant store with a password', () => {
  let server: RedisServer;
  const password = randomBytes(16).toString('hex');
  beforeAll(async () => {
    server = await startRedisServer({ password });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('HST-06 signs in to Redis with the password from SCHOOL_MCP_REDIS_PASSWORD, and fails with STORE_UNAVAILABLE without it', async () => {
    const { store } = await openStore(server, { password });
    await store.write('school-grant', 'usr_owner_ada', { who: 'ada' });
    expect(await store.read('school-grant', 'usr_owner_ada')).toEqual({ who: 'ada' });
    const attempt = async (candidate: string | undefined): Promise<void> => {
      const other = await openStore(server, {
        timeoutMs: 1000,
        ...(candidate === undefined ? {} : { password: candidate }),
      });
      await other.store.read('school-grant', 'usr_owner_ada');
    };
    await expect(attempt(undefined)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(attempt('not-the-password')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});

describeWithRedis('the Redis grant store when Redis goes away', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('HST-09 fails fast with STORE_UNAVAILABLE while Redis is stopped, and works again once it is back', async () => {
    // The store that must connect gets a long limit: a busy machine may take longer than a short one to
    // connect, and with Redis stopped a call fails at once anyway (no offline queue), not at the limit.
    const { store, warnings, debugLines } = await openStore(server, { timeoutMs: 10_000 });
    await store.write('client', 'kept', { n: 1 });
    await server.stop();
    await expect(store.read('client', 'kept')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(store.write('client', 'other', { n: 2 })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(store.take('client', 'other')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(openStore(server, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await vi.waitFor(() => expect(debugLines.join('\n')).toMatch(/Redis grant store is unavailable/), {
      timeout: 5000,
      interval: 25,
    });
    // The warning of an outage is the hosted server's, one per outage (SCL-03); the store's own lines are debug.
    expect(warnings).toEqual([]);
    await server.restart();
    // The test server saves nothing, so the restarted Redis is empty; the store reconnects by itself.
    await vi.waitFor(async () => expect(await store.read('client', 'kept')).toBeUndefined(), {
      timeout: 10_000,
      interval: 50,
    });
    await store.write('client', 'after', { n: 3 });
    expect(await store.read('client', 'after')).toEqual({ n: 3 });
  });

  it('answers ping while Redis answers, fails it fast with STORE_UNAVAILABLE while Redis is stopped, and answers again once it is back', async () => {
    const { store } = await openStore(server, { timeoutMs: 10_000 });
    await expect(store.ping()).resolves.toBeUndefined();
    await server.stop();
    await expect(store.ping()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await server.restart();
    await vi.waitFor(() => expect(store.ping()).resolves.toBeUndefined(), { timeout: 10_000, interval: 50 });
  });
});
