/**
 * What a record file's text reads as: a value, or why there is none. Pure: the caller carries the
 * answer out (sets a damaged file aside, removes an expired one, reseals one under an old key).
 */
import type { StoredValue } from './grant-store.js';
import { hasExpired } from './record-expiry.js';
import {
  openRecord,
  parseSealedRecord,
  sealedValueOf,
  type RecordAddress,
  type SealedRecord,
} from './sealed-record.js';
import type { StoreKeyring } from './store-keys.js';

export type RecordReading =
  /** Not a sealed record, or one that does not open under its key: set aside, read as absent. */
  | { readonly kind: 'damaged'; readonly reason: string }
  /** Past its expiry: removed, read as absent. */
  | { readonly kind: 'expired' }
  /** Sealed with a key the store no longer has: an error, not an absence, so no user is signed out by a missing key. */
  | { readonly kind: 'unknown-key'; readonly keyId: string }
  /** `oldKey`: sealed with a key other than the current one, so a rotation would seal it again. */
  | {
      readonly kind: 'value';
      readonly value: StoredValue;
      readonly plaintext: string;
      readonly sealed: SealedRecord;
      readonly oldKey: boolean;
    };

/** Pure: what the text of the record file at `address` reads as at `nowSeconds`. */
export function recordReading(
  text: string,
  address: RecordAddress,
  keyring: StoreKeyring,
  nowSeconds: number,
): RecordReading {
  const sealed = parseSealedRecord(text);
  if (sealed === undefined) return { kind: 'damaged', reason: 'not a sealed record' };
  if (hasExpired(sealed.expiresAt, nowSeconds)) return { kind: 'expired' };
  if (!keyring.byId.has(sealed.keyId)) return { kind: 'unknown-key', keyId: sealed.keyId };
  const opened = openRecord(sealed, address, keyring);
  if (!opened.ok) return { kind: 'damaged', reason: opened.reason };
  const value = sealedValueOf(opened.plaintext);
  if (value === undefined) return { kind: 'damaged', reason: 'it opens but holds no record' };
  return { kind: 'value', value, plaintext: opened.plaintext, sealed, oldKey: opened.keyId !== keyring.current.id };
}
