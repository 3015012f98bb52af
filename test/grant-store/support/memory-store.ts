/**
 * A grant store in a map, for tests of what is done with records once read: no sealing, no
 * expiry, a lock always free. What a test puts in it with `put` is stored as it is, of any shape.
 */
import type { GrantStore } from '../../../src/grant-store/index.js';

export interface MemoryStore extends GrantStore {
  /** Stores any value under the name, as a store shared with something else might hold it. */
  put(namespace: string, name: string, value: unknown): void;
  has(namespace: string, name: string): boolean;
}

export function memoryStore(): MemoryStore {
  const records = new Map<string, unknown>();
  const key = (namespace: string, name: string) => `${namespace}\0${name}`;
  let fence = 0;
  // Only a test puts a value of another kind than an object in it: the store hands back what it holds.
  const get = (namespace: string, name: string) => records.get(key(namespace, name)) as GrantStoreValue;
  return {
    put: (namespace, name, value) => void records.set(key(namespace, name), value),
    has: (namespace, name) => records.has(key(namespace, name)),
    read: async (namespace, name) => get(namespace, name),
    write: async (namespace, name, value) => void records.set(key(namespace, name), value),
    remove: async (namespace, name) => void records.delete(key(namespace, name)),
    async writeIfAbsent(namespace, name, value) {
      if (records.has(key(namespace, name))) return false;
      records.set(key(namespace, name), value);
      return true;
    },
    async take(namespace, name) {
      const value = get(namespace, name);
      records.delete(key(namespace, name));
      return value;
    },
    sweep: async () => 0,
    lock: async () => ({ fence: ++fence, release: async () => undefined }),
    async writeFenced(namespace, name, value) {
      records.set(key(namespace, name), value);
      return true;
    },
    ping: async () => undefined,
  };
}

type GrantStoreValue = Awaited<ReturnType<GrantStore['read']>>;
