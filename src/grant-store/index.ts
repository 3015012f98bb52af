/**
 * The hosted mode's store: an interface of namespaced, sealed, expiring records, and its embedded
 * directory implementation. Records are sealed with AES-256-GCM under keys that rotate.
 */
export type { GrantStore, StoredValue } from './grant-store.js';
export { holdingLock, releaseLock, type HoldingLockOptions } from './holding-lock.js';
export { isStoreUnavailable } from './store-errors.js';
export { openDirectoryStore } from './directory-store.js';
export { parseStoreKeys, storeKeyId, type StoreKeyring } from './store-keys.js';
export { readStoreKeyFile, storeKeysFromText } from './store-key-file.js';
export { openRedisStore, type RedisGrantStore } from './redis-store.js';
export { parseStoreLocation } from './redis-store-url.js';
export { createInProcessBus, isValidChannel, type MessageBus } from './message-bus.js';
export { countStoreKeys, resealStore, type ResealReport, type SealedRecordScan } from './store-rotation.js';
export { isRecordUnreadable, readingUnreadableAsAbsent } from './unreadable-as-absent.js';
export {
  isFiniteNumber,
  isObject,
  isText,
  listOf,
  objectWith,
  oneOf,
  optional,
  readRecord,
  takeRecord,
  type Check,
  type RecordKind,
} from './record-shape.js';
