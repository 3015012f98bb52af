/**
 * One record of the grant store as it rests on disk (or in any shared store): AES-256-GCM with a
 * fresh 96-bit nonce (NIST SP 800-38D §8.2.2), the id of the key that sealed it, and its expiry in
 * the clear so that expired records can be swept without opening them. The additional
 * authenticated data binds the ciphertext to its namespace, its record name and that expiry: a
 * record copied under another name (another user's) or given a later expiry does not open. A
 * record written under a lock also carries its fence in the clear, for a store that compares
 * fences without the key (a Redis script), and under the seal, so it cannot be changed unseen. Pure.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { StoredValue } from './grant-store.js';
import { isFiniteNumber, isObject, isText, objectWith, oneOf, optional, type Check } from './record-shape.js';
import type { StoreKey, StoreKeyring } from './store-keys.js';

export interface SealedRecord {
  readonly version: 1;
  readonly keyId: string;
  /** Seconds since the epoch; absent for a record that does not expire. */
  readonly expiresAt?: number;
  /** The fence of the lock it was written under (`fencing.ts`); absent for a plain write. */
  readonly fence?: number;
  readonly nonce: string;
  readonly tag: string;
  readonly ciphertext: string;
}

/** Where a record lives: its namespace and its name in it. */
export interface RecordAddress {
  readonly namespace: string;
  readonly name: string;
}

export type OpenedRecord =
  | { readonly ok: true; readonly plaintext: string; readonly keyId: string }
  | { readonly ok: false; readonly reason: string };

function associatedData(address: RecordAddress, expiresAt: number | undefined, fence: number | undefined): Buffer {
  // Without a fence the data is what it was before fences existed, so older records still open.
  const fenced = fence === undefined ? [] : [fence];
  return Buffer.from(
    JSON.stringify(['school-mcp grant store v1', address.namespace, address.name, expiresAt ?? null, ...fenced]),
  );
}

export function sealRecord(
  plaintext: string,
  address: RecordAddress,
  expiresAt: number | undefined,
  key: StoreKey,
  fence?: number,
): SealedRecord {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, nonce);
  cipher.setAAD(associatedData(address, expiresAt, fence));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    version: 1,
    keyId: key.id,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(fence === undefined ? {} : { fence }),
    nonce: nonce.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
  };
}

export function openRecord(sealed: SealedRecord, address: RecordAddress, keyring: StoreKeyring): OpenedRecord {
  const key = keyring.byId.get(sealed.keyId);
  if (key === undefined)
    return { ok: false, reason: `it was sealed with key ${sealed.keyId}, which is not among the store keys` };
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(sealed.nonce, 'base64url'));
    decipher.setAAD(associatedData(address, sealed.expiresAt, sealed.fence));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    const plaintext = Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return { ok: true, plaintext, keyId: key.id };
  } catch {
    return {
      ok: false,
      reason: 'it does not open with its key: it was changed, moved from another name, or is damaged',
    };
  }
}

const isFence: Check<number> = (value): value is number =>
  isFiniteNumber(value) && Number.isSafeInteger(value) && value > 0;

const isSealedRecord: Check<SealedRecord> = objectWith({
  version: oneOf(1),
  keyId: isText,
  expiresAt: optional(isFiniteNumber),
  fence: optional(isFence),
  nonce: isText,
  tag: isText,
  ciphertext: isText,
});

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Pure: the envelope from a file's text, when it has the shape of one. */
export function parseSealedRecord(text: string): SealedRecord | undefined {
  const value = parsedJson(text);
  return isSealedRecord(value) ? value : undefined;
}

/**
 * Pure: the record an opened seal holds, `{"value": {...}}` as the stores write it; `undefined`
 * for anything else, which the stores treat as a seal that does not open (ST-17).
 */
export function sealedValueOf(plaintext: string): StoredValue | undefined {
  const parsed = parsedJson(plaintext);
  return isObject(parsed) && isObject(parsed['value']) ? parsed['value'] : undefined;
}
