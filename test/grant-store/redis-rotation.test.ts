/**
 * A key rotation on a real redis-server: the same contract as the directory store's, through SCAN
 * and the compare-and-set script, and the TTL each record had left kept through its reseal.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  openRedisStore,
  parseStoreLocation,
  resealStore,
  type RedisGrantStore,
  type StoreKeyring,
} from '../../src/grant-store/index.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  expectResealToFinishTheRotation,
  expectResealToLeaveNewerRecords,
  expectUnreadableRecordsCountedAndKept,
  keyring,
} from './support/rotation-contract.js';
import { redisRecordKey } from '../../src/grant-store/redis-keys.js';

const opened: RedisGrantStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describeWithRedis('a key rotation on the Redis grant store', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function flushed() {
    const raw = createClient({ url: server.url });
    raw.on('error', () => undefined);
    await raw.connect();
    await raw.flushDb();
    return raw;
  }

  const openUnder = async (keys: StoreKeyring) => {
    const location = parseStoreLocation(server.url);
    if (!location.ok || location.location.kind !== 'redis') throw new Error('not a Redis URL');
    const store = await openRedisStore({
      address: location.location.address,
      keyring: keys,
      logger: { warn: () => undefined },
    });
    opened.push(store);
    return store;
  };

  it('ST-12 HST-08 reseals every record under the old key with the new one, found with SCAN, keeping expiry and fence', async () => {
    const raw = await flushed();
    try {
      await expectResealToFinishTheRotation(openUnder);
    } finally {
      await raw.close();
    }
  });

  it('ST-12 HST-08 keeps the TTL each record had left', async () => {
    const raw = await flushed();
    try {
      const [a, b] = [randomBytes(32), randomBytes(32)];
      const underA = await openUnder(keyring(a));
      await underA.write('oidc-session', 's1', { n: 1 }, { ttlSeconds: 500 });
      await underA.write('school-grant', 'usr_ada', { n: 2 });
      const { key: expiring } = redisRecordKey('oidc-session', 's1');
      const { key: lasting } = redisRecordKey('school-grant', 'usr_ada');
      await raw.expire(expiring, 300);
      const report = await resealStore((await openUnder(keyring(b, a))).scan(), keyring(b, a), () =>
        Math.floor(Date.now() / 1000),
      );
      expect(report).toMatchObject({ resealed: 2, after: { underOldKeys: 0 } });
      const ttl = await raw.ttl(expiring);
      expect(ttl).toBeGreaterThan(250);
      expect(ttl).toBeLessThanOrEqual(300);
      expect(await raw.ttl(lasting)).toBe(-1);
      expect(JSON.parse((await raw.get(expiring))!).keyId).toBe(keyring(b).current.id);
    } finally {
      await raw.close();
    }
  });

  it('ST-12 HST-08 leaves a record rewritten or taken since the reseal read it as its writer left it', async () => {
    const raw = await flushed();
    try {
      await expectResealToLeaveNewerRecords(openUnder);
    } finally {
      await raw.close();
    }
  });

  it('ST-13 counts records no key given opens, by namespace, and keeps them', async () => {
    const raw = await flushed();
    try {
      await expectUnreadableRecordsCountedAndKept(openUnder);
    } finally {
      await raw.close();
    }
  });
});
