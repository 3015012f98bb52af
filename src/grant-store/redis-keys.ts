/**
 * The names of what the Redis store keeps: `school-mcp:<namespace>:<SHA-256 of the name>` for a
 * record, so that no user id or token names a key, and the keys of its lock and fence counter next
 * to it. Pure.
 */
import { recordAddressOf } from './record-file-name.js';
import { isValidNamespace } from './grant-store.js';
import type { RecordAddress } from './sealed-record.js';

const KEY_PREFIX = 'school-mcp:';

/** Pure: the Redis key of a record and the address its seal is bound to (the directory store's). */
export function redisRecordKey(namespace: string, name: string): { key: string; address: RecordAddress } {
  const address = recordAddressOf(namespace, name);
  return { key: `${KEY_PREFIX}${namespace}:${address.name.replace(/\.rec$/, '')}`, address };
}

/** What SCAN matches: every key of the store; `redisRecordAddress` tells the records apart. */
export const REDIS_RECORD_PATTERN = `${KEY_PREFIX}*`;

/** A record's key: a namespace, then the 43 base64url characters of a SHA-256 (locks and fences have a word more). */
const RECORD_KEY = /^school-mcp:([a-z][a-z0-9-]{0,39}):([A-Za-z0-9_-]{43})$/;

/** Pure: the address a record's key stands for, or `undefined` for a key that is not a record's (a lock, a fence counter). */
export function redisRecordAddress(key: string): RecordAddress | undefined {
  const match = RECORD_KEY.exec(key);
  if (match === null || !isValidNamespace(match[1]!)) return undefined;
  return { namespace: match[1]!, name: `${match[2]!}.rec` };
}

/** Pure: the key of a record known by its address (`redisRecordAddress`'s inverse). */
export function redisRecordKeyOf(address: RecordAddress): { key: string } {
  return { key: `${KEY_PREFIX}${address.namespace}:${address.name.replace(/\.rec$/, '')}` };
}

export interface RedisLockKeys {
  readonly record: string;
  readonly lock: string;
  readonly fence: string;
}

/**
 * Pure: the keys of a record, of its lock and of its fence counter. `lock` and `fence` are not
 * namespace names (which the store's namespaces could collide with) but words before them.
 */
export function redisLockKeys(namespace: string, name: string): RedisLockKeys {
  const { key } = redisRecordKey(namespace, name);
  const rest = key.slice(KEY_PREFIX.length);
  return { record: key, lock: `${KEY_PREFIX}lock:${rest}`, fence: `${KEY_PREFIX}fence:${rest}` };
}
