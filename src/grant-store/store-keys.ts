/**
 * The keys that seal the grant store's records. Each key is 32 random bytes (AES-256), written in
 * base64 or base64url; several keys may be given, separated by commas or white space, and the
 * first one seals new records while the others only open old ones, so a key rotates by putting
 * the new one first and dropping the old one once every record was rewritten. A key's id is a
 * fingerprint of the key itself, so no id has to be made up, and two different keys never share one.
 * Pure.
 */
import { createHash } from 'node:crypto';

export interface StoreKey {
  /** Stored with each record, so that the key that sealed it can be found again. */
  readonly id: string;
  readonly bytes: Buffer;
}

export interface StoreKeyring {
  /** Seals every record written. */
  readonly current: StoreKey;
  /** Every key by id, `current` included: opens records sealed under any of them. */
  readonly byId: ReadonlyMap<string, StoreKey>;
}

export type StoreKeysParse =
  | { readonly ok: true; readonly keyring: StoreKeyring }
  | { readonly ok: false; readonly reason: string };

const KEY_BYTES = 32;

/** The key id: the first 16 hex digits of the key's SHA-256, a name that reveals nothing usable. */
export function storeKeyId(bytes: Buffer): string {
  return createHash('sha256').update('school-mcp store key id\0').update(bytes).digest('hex').slice(0, 16);
}

export function parseStoreKeys(text: string): StoreKeysParse {
  const words = text.split(/[\s,]+/).filter((word) => word !== '');
  if (words.length === 0) return { ok: false, reason: 'no key was given' };
  const keys: StoreKey[] = [];
  for (const [index, word] of words.entries()) {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(word)) return { ok: false, reason: `key ${index + 1} is not base64` };
    const bytes = Buffer.from(word.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length !== KEY_BYTES)
      return {
        ok: false,
        reason: `key ${index + 1} is ${bytes.length} bytes; an AES-256 key is ${KEY_BYTES} random bytes (openssl rand -base64 32)`,
      };
    keys.push({ id: storeKeyId(bytes), bytes });
  }
  const byId = new Map<string, StoreKey>();
  for (const key of keys) byId.set(key.id, key);
  return { ok: true, keyring: { current: keys[0]!, byId } };
}
