/**
 * Where a record lives in the directory store, and the names of the files next to it. A record's
 * file is named by the SHA-256 of its name, so a name that is a token or a user id never appears
 * on disk; the Redis store names its keys after the same digest. Pure.
 */
import { createHash } from 'node:crypto';
import { isValidNamespace } from './grant-store.js';
import type { RecordAddress } from './sealed-record.js';

const RECORD_SUFFIX = '.rec';
/** A record's lock directory is its file's name with this suffix (`directory-lock.ts`). */
const LOCK_SUFFIX = '.lock';

/** Pure: the file name of a record, from its name. */
export function recordFileName(name: string): string {
  return `${createHash('sha256').update(name, 'utf8').digest('base64url')}${RECORD_SUFFIX}`;
}

/** Pure: the address a record's seal is bound to; throws a `RangeError` for a namespace or name the store refuses. */
export function recordAddressOf(namespace: string, name: string): RecordAddress {
  if (!isValidNamespace(namespace)) throw new RangeError(`not a store namespace: ${JSON.stringify(namespace)}`);
  if (name === '') throw new RangeError('a record needs a name');
  return { namespace, name: recordFileName(name) };
}

/** Pure: whether a directory entry is a record's file (not a lock, a temporary or a damaged file set aside). */
export function isRecordFileName(entry: string): boolean {
  return entry.endsWith(RECORD_SUFFIX);
}

/** Pure: the lock directory of the record at `recordPath`. */
export function lockDirOf(recordPath: string): string {
  return `${recordPath}${LOCK_SUFFIX}`;
}

/** Pure: where a record that did not open is set aside at `nowSeconds`, for someone to look at. */
export function setAsidePathOf(recordPath: string, nowSeconds: number): string {
  return `${recordPath}.damaged-${nowSeconds}`;
}

/** Pure: a temporary file next to a record, unpredictable by the random `tag`; never a record's name. */
export function scratchPathOf(recordPath: string, tag: string): string {
  return `${recordPath}.${tag}.tmp`;
}
