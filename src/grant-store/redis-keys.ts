/**
 * The names of what the Redis store keeps: `school-mcp:<namespace>:<SHA-256 of the name>` for a
 * record, so that no user id or token names a key, and the keys of its lock and fence counter next
 * to it. Pure.
 */
import { recordFileName } from './directory-store.js';
import { isValidNamespace } from './grant-store.js';
import type { RecordAddress } from './sealed-record.js';

const KEY_PREFIX = 'school-mcp:';

/** Pure: the Redis key of a record and the address its seal is bound to (the directory store's). */
export function redisRecordKey(namespace: string, name: string): { key: string; address: RecordAddress } {
  if (!isValidNamespace(namespace)) throw new RangeError(`not a store namespace: ${JSON.stringify(namespace)}`);
  if (name === '') throw new RangeError('a record needs a name');
  const file = recordFileName(name);
  return { key: `${KEY_PREFIX}${namespace}:${file.replace(/\.rec$/, '')}`, address: { namespace, name: file } };
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
