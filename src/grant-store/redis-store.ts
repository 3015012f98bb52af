/**
 * The shared grant store: the same sealed records as the directory store, kept in Redis so that
 * several instances see one state. A key is `school-mcp:<namespace>:<SHA-256 of the name>`, so no
 * user id or token names a key; the value is the sealed record, bound to the same address as the
 * directory store's file, and its TTL is set with SET EX, so Redis expires it and sweep has
 * nothing to do. Take-once is GETDEL, locks and fenced writes are scripts (`redis-fencing.ts`),
 * each atomic on the server.
 *
 * Redis down must not stall a request: the client keeps no offline queue (a command while
 * disconnected fails at once), every command has a timeout, and reconnection goes on in the
 * background so the store recovers when Redis is back.
 *
 * The client is node-redis (`redis`), the one Redis Ltd. itself maintains, with GETDEL, SET EX,
 * TLS and AUTH built in and no dependency outside @redis/*. It is pinned exactly in package.json
 * because its reconnection and offline-queue behaviour, which the fail-fast rule rests on, has
 * changed between releases; a new version is taken on purpose, with the tests run against it.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Logger } from '../log.js';
import { checkFence, checkLockOptions, isFence, type LockOptions, type StoreLock } from './fencing.js';
import {
  expiryOf,
  type FencedWriteOptions,
  type GrantStore,
  type StoredValue,
  type WriteOptions,
} from './grant-store.js';
import type { MessageBus } from './message-bus.js';
import { FENCE_COUNTER_LIFETIME_MS, RELEASE_LOCK, TAKE_LOCK, WRITE_FENCED } from './redis-fencing.js';
import {
  redisLockKeys,
  redisRecordAddress,
  redisRecordKey,
  redisRecordKeyOf,
  REDIS_RECORD_PATTERN,
} from './redis-keys.js';
import { openRedisMessageBus } from './redis-message-bus.js';
import type { RedisStoreAddress } from './redis-store-url.js';
import { recordReading, type RecordReading } from './record-reading.js';
import { sealRecord, type RecordAddress } from './sealed-record.js';
import { storeRecordUnreadable, storeUnavailable } from './store-errors.js';
import type { StoreKeyring } from './store-keys.js';
import type { ScannedRecord, SealedRecordScan } from './store-rotation.js';

/**
 * Replaces a record with its resealed copy only while it still holds what was read, keeping its
 * TTL: a record taken or rewritten meanwhile by another instance is neither revived nor undone.
 */
const RESEAL_IF_UNCHANGED =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end return false";
const DEFAULT_TIMEOUT_MS = 2000;
/** Keys asked for per SCAN step: small steps keep each one short on a Redis that serves requests meanwhile. */
const SCAN_COUNT = 200;
/** Between reconnection attempts while Redis is away: soon enough to recover quickly, not a busy loop. */
const RECONNECT_DELAY_MS = 250;

export interface RedisStoreOptions {
  readonly address: RedisStoreAddress;
  /** SCHOOL_MCP_REDIS_PASSWORD. */
  readonly password?: string | undefined;
  readonly keyring: StoreKeyring;
  /**
   * Records that do not open are warnings; a lost connection is debug only, since the hosted
   * server that uses the store logs one warning per outage, with its cause, however it shows.
   */
  readonly logger: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'debug'>>;
  /** Connect and per-command timeout; a store call fails with STORE_UNAVAILABLE after it. */
  readonly timeoutMs?: number;
  /** Seconds since the epoch; tests move it to check the expiry sealed in a record. */
  readonly nowSeconds?: () => number;
}

export interface RedisGrantStore extends GrantStore {
  /** The records, found with SCAN (never KEYS, which blocks the server), for a key rotation. */
  scan(): SealedRecordScan;
  /** Pub/sub between the instances on this Redis, sealed with the store keys; closed by its own `close`. */
  openMessageBus(): Promise<MessageBus>;
  close(): Promise<void>;
}

export async function openRedisStore(options: RedisStoreOptions): Promise<RedisGrantStore> {
  const { address, keyring, logger } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  let everReady = false;
  const client = createClient({
    url: address.url,
    ...(options.password === undefined ? {} : { password: options.password }),
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    // A first connection that fails ends the start (school-mcp exits saying why); once connected, a
    // lost connection is retried for as long as it takes, while calls fail fast meanwhile.
    socket: {
      connectTimeout: timeoutMs,
      reconnectStrategy: (_retries, cause) => (everReady ? RECONNECT_DELAY_MS : cause),
    },
  });
  let lastWarning = '';
  client.on('error', (error: Error) => {
    // Before the first connection the start fails with the error itself; after it, one line per
    // distinct failure, not one per reconnection attempt.
    if (!everReady || error.message === lastWarning) return;
    lastWarning = error.message;
    logger.debug?.('the Redis grant store is unavailable; retrying', { error: error.message });
  });
  client.on('ready', () => {
    everReady = true;
    lastWarning = '';
  });

  async function command<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw storeUnavailable(what, error);
    }
  }

  let connectTimer: NodeJS.Timeout | undefined;
  try {
    // The connect timeout covers the TCP connection only; a server that accepts and never answers
    // the handshake would hold the start forever without this bound.
    const silent = new Promise<never>((_, reject) => {
      connectTimer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([client.connect(), silent]);
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw storeUnavailable(`connect to ${address.url}`, error);
  } finally {
    clearTimeout(connectTimer);
  }

  /** What a record's text reads as: the rule of `record-reading.ts`, which the directory store follows too. */
  function openText(text: string, address: RecordAddress): (RecordReading & { kind: 'value' }) | undefined {
    // Redis expires the key, but the sealed expiry is the one an attacker cannot extend.
    const reading = recordReading(text, address, keyring, now());
    switch (reading.kind) {
      case 'value':
        return reading;
      case 'expired':
        return undefined;
      case 'unknown-key':
        throw storeRecordUnreadable(`it was sealed with key ${reading.keyId}, which is not among the store keys`);
      case 'damaged':
        logger.warn('a grant store record did not open; answered as absent, its user signs in again', {
          namespace: address.namespace,
          reason: reading.reason,
        });
        return undefined;
    }
  }

  async function writeSealed(
    key: string,
    address: RecordAddress,
    value: StoredValue,
    expiresAt: number | undefined,
  ): Promise<void> {
    const sealed = JSON.stringify(sealRecord(JSON.stringify({ value }), address, expiresAt, keyring.current));
    if (expiresAt === undefined) await command(`save a ${address.namespace} record`, () => client.set(key, sealed));
    else
      await command(`save a ${address.namespace} record`, () =>
        client.set(key, sealed, { EX: Math.max(1, expiresAt - now()) }),
      );
  }

  return {
    async read(namespace, name) {
      const { key, address } = redisRecordKey(namespace, name);
      const text = await command(`read a ${namespace} record`, () => client.get(key));
      if (text === null) return undefined;
      const reading = openText(text, address);
      if (reading === undefined) return undefined;
      // A record sealed with an older key is sealed again with the current one, as the directory store does.
      if (reading.oldKey) {
        const { sealed } = reading;
        const resealed = JSON.stringify(
          sealRecord(
            JSON.stringify({ value: reading.value }),
            address,
            sealed.expiresAt,
            keyring.current,
            sealed.fence,
          ),
        );
        await command(`reseal a ${namespace} record`, () =>
          client.eval(RESEAL_IF_UNCHANGED, { keys: [key], arguments: [text, resealed] }),
        );
      }
      return reading.value;
    },

    async write(namespace, name, value, writeOptions?: WriteOptions) {
      const { key, address } = redisRecordKey(namespace, name);
      await writeSealed(key, address, value, expiryOf(writeOptions, now()));
    },

    async writeIfAbsent(namespace, name, value, writeOptions?: WriteOptions) {
      const { key, address } = redisRecordKey(namespace, name);
      const expiresAt = expiryOf(writeOptions, now());
      const sealed = JSON.stringify(sealRecord(JSON.stringify({ value }), address, expiresAt, keyring.current));
      const ttl = expiresAt === undefined ? {} : { EX: Math.max(1, expiresAt - now()) };
      // SET NX: atomic on the server, so one instance of many creates the record.
      const created = await command(`create a ${namespace} record`, () =>
        client.set(key, sealed, { NX: true, ...ttl }),
      );
      return created !== null;
    },

    async remove(namespace, name) {
      const { key } = redisRecordKey(namespace, name);
      await command(`remove a ${namespace} record`, () => client.del(key));
    },

    async take(namespace, name) {
      const { key, address } = redisRecordKey(namespace, name);
      const text = await command(`take a ${namespace} record`, () => client.getDel(key));
      return text === null ? undefined : openText(text, address)?.value;
    },

    async sweep() {
      return 0;
    },

    async lock(namespace, name, lockOptions: LockOptions): Promise<StoreLock | undefined> {
      checkLockOptions(lockOptions);
      const keys = redisLockKeys(namespace, name);
      const owner = randomBytes(16).toString('base64url');
      const fence = await command(`lock a ${namespace} record`, () =>
        client.eval(TAKE_LOCK, {
          keys: [keys.lock, keys.fence, keys.record],
          arguments: [owner, String(lockOptions.ttlMs), String(FENCE_COUNTER_LIFETIME_MS)],
        }),
      );
      if (fence === null) return undefined;
      if (!isFence(fence))
        throw storeUnavailable(
          `lock a ${namespace} record`,
          new Error(`the lock script answered ${JSON.stringify(fence)}`),
        );
      return {
        fence,
        release: async () => {
          await command(`release the lock of a ${namespace} record`, () =>
            client.eval(RELEASE_LOCK, { keys: [keys.lock], arguments: [owner] }),
          );
        },
      };
    },

    async writeFenced(namespace, name, value, fence, writeOptions?: FencedWriteOptions) {
      checkFence(fence);
      const { key, address } = redisRecordKey(namespace, name);
      const expiresAt = expiryOf(writeOptions, now());
      const sealed = JSON.stringify(sealRecord(JSON.stringify({ value }), address, expiresAt, keyring.current, fence));
      const ttl = expiresAt === undefined ? '' : String(Math.max(1, expiresAt - now()));
      const written = await command(`save a ${namespace} record`, () =>
        client.eval(WRITE_FENCED, {
          keys: [key],
          arguments: [String(fence), sealed, ttl, writeOptions?.replaceOnly ? '1' : ''],
        }),
      );
      return written === 1;
    },

    scan() {
      async function* records(): AsyncGenerator<ScannedRecord> {
        const keys = client.scanIterator({ MATCH: REDIS_RECORD_PATTERN, COUNT: SCAN_COUNT });
        for (;;) {
          const step = await command('list the records', () => keys.next());
          if (step.done) return;
          for (const key of step.value) {
            const address = redisRecordAddress(key);
            // A lock or a fence counter, not a record.
            if (address === undefined) continue;
            const text = await command(`read a ${address.namespace} record`, () => client.get(key));
            // Expired, taken or removed since the step listed it.
            if (text !== null) yield { address, text };
          }
        }
      }
      return {
        location: address.url,
        records,
        async replaceIfUnchanged(record, sealed) {
          const { key } = redisRecordKeyOf(record.address);
          const replaced = await command(`reseal a ${record.address.namespace} record`, () =>
            client.eval(RESEAL_IF_UNCHANGED, { keys: [key], arguments: [record.text, sealed] }),
          );
          return replaced !== null;
        },
      };
    },

    openMessageBus() {
      return openRedisMessageBus({ client, keyring, logger, nowSeconds: now });
    },

    async ping() {
      await command('answer a PING', () => client.ping());
    },

    async close() {
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}
