/**
 * A store whose records sealed with a key no longer given read as absent, for the request that
 * reads them: the record stays where it is (the key may come back), and whoever it belonged to
 * is treated as signed out, so they sign in again instead of meeting a server error. Each
 * namespace is warned about once per process, by name and key id, never by record or content.
 * The authorization server's own secrets are read from the store itself, where such a record
 * stops the start (`hosted/provider-secrets.ts`): nothing can stand in for them. A record that
 * opens but is not of its kind's shape (`record-shape.ts`) reads as absent too, and is warned
 * about in the same way, by namespace (ST-17).
 */
import { isSchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import type { GrantStore } from './grant-store.js';

/** Pure: whether an error is a record sealed with a key that is not among the store keys. */
export function isRecordUnreadable(error: unknown): boolean {
  return isSchoolMcpError(error) && error.code === 'STORE_RECORD_UNREADABLE';
}

export function readingUnreadableAsAbsent<Store extends GrantStore>(store: Store, logger: Pick<Logger, 'warn'>): Store {
  const warned = new Set<string>();
  const warnedMisshapen = new Set<string>();
  const absentIfUnreadable = async <T>(namespace: string, call: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await call();
    } catch (error) {
      if (!isRecordUnreadable(error)) throw error;
      if (!warned.has(namespace)) {
        warned.add(namespace);
        logger.warn(
          'records sealed with a store key that is no longer given read as absent: their people sign in again',
          {
            namespace,
            reason: error instanceof Error ? error.message : String(error),
            next: 'put the old key back after the current one and run `school-mcp store reseal`, or leave them to be replaced',
          },
        );
      }
      return undefined;
    }
  };
  return {
    ...store,
    read: (namespace, name) => absentIfUnreadable(namespace, () => store.read(namespace, name)),
    take: (namespace, name) => absentIfUnreadable(namespace, () => store.take(namespace, name)),
    misshapenRecord(namespace) {
      if (warnedMisshapen.has(namespace)) return;
      warnedMisshapen.add(namespace);
      logger.warn('records not of the shape this version reads read as absent: their people start again', {
        namespace,
        next: 'they are replaced as their people sign in again; a store shared with another program needs a store of its own',
      });
    },
  };
}
