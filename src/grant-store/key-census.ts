/**
 * What a key rotation has left to do: for each record, whether it must be sealed again under the
 * current key, and for the whole store, how many records rest under each key. A rotation is over
 * when no record that opens rests under an old key; only then may the old key be dropped. Pure.
 */
import type { SealedRecord } from './sealed-record.js';
import type { StoreKeyring } from './store-keys.js';

/**
 * Where a record stands in a rotation, from its envelope alone (no seal is opened):
 * - `current`: sealed with the current key, nothing to do;
 * - `old`: sealed with another key given, to be sealed again with the current one;
 * - `unknown-key`: sealed with a key not given, so it cannot be read with any key;
 * - `expired`: past its sealed expiry, left to the sweep (or Redis's TTL);
 * - `not-sealed`: not a sealed record at all.
 */
export type RecordStanding =
  | { readonly kind: 'current' }
  | { readonly kind: 'old'; readonly keyId: string }
  | { readonly kind: 'unknown-key'; readonly keyId: string }
  | { readonly kind: 'expired' }
  | { readonly kind: 'not-sealed' };

/** Pure: the decision "reseal this record?" — `old` is the one answer that means yes. */
export function standingOf(
  sealed: SealedRecord | undefined,
  keyring: StoreKeyring,
  nowSeconds: number,
): RecordStanding {
  if (sealed === undefined) return { kind: 'not-sealed' };
  if (sealed.expiresAt !== undefined && sealed.expiresAt <= nowSeconds) return { kind: 'expired' };
  if (sealed.keyId === keyring.current.id) return { kind: 'current' };
  return keyring.byId.has(sealed.keyId)
    ? { kind: 'old', keyId: sealed.keyId }
    : { kind: 'unknown-key', keyId: sealed.keyId };
}

/** How many live records rest under one key. */
interface KeyCount {
  readonly keyId: string;
  readonly records: number;
  /** The key that seals new records. */
  readonly current: boolean;
  /** Among the keys given: its records open. A key not given is one whose records cannot be read. */
  readonly given: boolean;
}

/** The store as a rotation sees it. Namespaces are named, record names and contents never. */
export interface KeyCensus {
  readonly currentKeyId: string;
  /** Every key given, then every other key some record names; the current key first. */
  readonly keys: readonly KeyCount[];
  /** Live records sealed with an old key that is given: what a reseal would seal again. */
  readonly underOldKeys: number;
  /** Records no key given can read: sealed with a key not given, not sealed records, or seals that do not open. */
  readonly unreadable: number;
  /** The namespaces of the unreadable records, each with how many. */
  readonly unreadableByNamespace: Readonly<Record<string, number>>;
  /** Past their sealed expiry: neither counted nor resealed, the sweep removes them. */
  readonly expired: number;
}

/** One record as counted: its namespace, where it stands, and whether its seal failed to open. */
export interface CountedRecord {
  readonly namespace: string;
  readonly standing: RecordStanding;
  /** Set when the seal was tried and did not open (a damaged or moved record). */
  readonly damaged?: boolean;
}

/** Pure: the census of these records under this keyring. */
export function takeCensus(records: Iterable<CountedRecord>, keyring: StoreKeyring): KeyCensus {
  const counts = new Map<string, number>([...keyring.byId.keys()].map((keyId) => [keyId, 0]));
  const unreadableByNamespace: Record<string, number> = {};
  let underOldKeys = 0;
  let unreadable = 0;
  let expired = 0;
  for (const record of records) {
    const { standing } = record;
    if (standing.kind === 'expired') {
      expired += 1;
      continue;
    }
    if (standing.kind === 'current' || standing.kind === 'old' || standing.kind === 'unknown-key') {
      const keyId = standing.kind === 'current' ? keyring.current.id : standing.keyId;
      counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
    }
    if (standing.kind === 'old' && !record.damaged) underOldKeys += 1;
    if (standing.kind === 'not-sealed' || standing.kind === 'unknown-key' || record.damaged) {
      unreadable += 1;
      unreadableByNamespace[record.namespace] = (unreadableByNamespace[record.namespace] ?? 0) + 1;
    }
  }
  const keys = [...counts].map(([keyId, count]) => ({
    keyId,
    records: count,
    current: keyId === keyring.current.id,
    given: keyring.byId.has(keyId),
  }));
  keys.sort((a, b) => Number(b.current) - Number(a.current) || Number(b.given) - Number(a.given));
  return { currentKeyId: keyring.current.id, keys, underOldKeys, unreadable, unreadableByNamespace, expired };
}
