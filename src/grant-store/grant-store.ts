/**
 * The store behind hosted mode: every MCP client's registration, every staff member's school
 * grant, and the short-lived records of flows in progress. It is a map of namespaced JSON records
 * with expiry and nothing else, so that a directory serves one instance and a shared store such as
 * Redis (GET, SET with EX, DEL, GETDEL) can serve several behind the same interface: no method
 * needs state kept in the process between calls.
 */

/** A record's content: a JSON object. */
export type StoredValue = { readonly [field: string]: unknown };

export interface WriteOptions {
  /** Seconds until the record expires; it never does when absent. */
  readonly ttlSeconds?: number;
}

export interface GrantStore {
  /** The record, or `undefined` when there is none or it has expired. */
  read(namespace: string, name: string): Promise<StoredValue | undefined>;
  /** Creates or replaces the record as a whole. */
  write(namespace: string, name: string, value: StoredValue, options?: WriteOptions): Promise<void>;
  remove(namespace: string, name: string): Promise<void>;
  /**
   * Creates the record only when there is none (an expired one counts as none) and says whether
   * it did: of instances racing to create it, one wins and the others read the winner's.
   */
  writeIfAbsent(namespace: string, name: string, value: StoredValue, options?: WriteOptions): Promise<boolean>;
  /**
   * Reads and removes the record in one step: of two callers racing for it, one gets it and the
   * other gets `undefined`. For what may be used once (codes, pending sign-ins).
   */
  take(namespace: string, name: string): Promise<StoredValue | undefined>;
  /** Removes expired records and says how many; a backend that expires records itself removes none. */
  sweep(): Promise<number>;
  /**
   * Resolves when the store answers, cheaply (a readiness check may call it often); rejects, with
   * `STORE_UNAVAILABLE` for a store reached over the network, when it does not.
   */
  ping(): Promise<void>;
}

const NAMESPACE = /^[a-z][a-z0-9-]{0,39}$/;

/** Pure: whether a namespace name is one the store accepts (it becomes a directory or key prefix). */
export function isValidNamespace(namespace: string): boolean {
  return NAMESPACE.test(namespace);
}

/** Pure: the expiry of a record written at `nowSeconds` with these options. */
export function expiryOf(options: WriteOptions | undefined, nowSeconds: number): number | undefined {
  const ttl = options?.ttlSeconds;
  if (ttl === undefined) return undefined;
  if (!Number.isFinite(ttl) || ttl <= 0) throw new RangeError(`a record's ttlSeconds must be a positive number, got ${ttl}`);
  return nowSeconds + Math.ceil(ttl);
}
