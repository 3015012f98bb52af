/**
 * The store behind hosted mode: every MCP client's registration, every staff member's school
 * grant, and the short-lived records of flows in progress. It is a map of namespaced JSON records
 * with expiry and nothing else, so that a directory serves one instance and a shared store such as
 * Redis (GET, SET with EX, DEL, GETDEL) can serve several behind the same interface: no method
 * needs state kept in the process between calls. Locks with fences (`fencing.ts`) let instances
 * take turns at what must happen once, such as a refresh whose token the school rotates.
 */

import type { LockOptions, StoreLock } from './fencing.js';

/** A record's content: a JSON object. */
export type StoredValue = { readonly [field: string]: unknown };

export interface WriteOptions {
  /** Seconds until the record expires; it never does when absent. */
  readonly ttlSeconds?: number;
}

export interface FencedWriteOptions extends WriteOptions {
  /** Only replace a record that is there: one removed meanwhile (a sign-out) stays removed. */
  readonly replaceOnly?: boolean;
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
   * Takes the lock named like a record, for every instance on this store at once, or answers
   * `undefined` while another holder has it. The lock runs out after `ttlMs` without a release.
   */
  lock(namespace: string, name: string, options: LockOptions): Promise<StoreLock | undefined>;
  /**
   * Writes the record as `write` does, carrying the fence of a lock on it, unless a write with a
   * greater fence already landed there, or (with `replaceOnly`) when there is no record: then
   * nothing is written and the answer is `false`. A plain `write` afterwards starts the record's
   * fencing afresh.
   */
  writeFenced(
    namespace: string,
    name: string,
    value: StoredValue,
    fence: number,
    options?: FencedWriteOptions,
  ): Promise<boolean>;
  /**
   * Resolves when the store answers, cheaply (a readiness check may call it often); rejects, with
   * `STORE_UNAVAILABLE` for a store reached over the network, when it does not.
   */
  ping(): Promise<void>;
  /**
   * Told that a record read as one kind (`record-shape.ts`) is not of that kind's shape, so that
   * it reads as absent; never told its name or content. The store that reads unreadable records as
   * absent warns of these too, once per namespace; a store without it says nothing.
   */
  misshapenRecord?(namespace: string): void;
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
  if (!Number.isFinite(ttl) || ttl <= 0)
    throw new RangeError(`a record's ttlSeconds must be a positive number, got ${ttl}`);
  return nowSeconds + Math.ceil(ttl);
}
