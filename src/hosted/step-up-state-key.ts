/**
 * The key that seals a 2026-07-28 step-up's `requestState`. A client's retry may land on any
 * instance behind the load balancer, so every instance on one store must hold the same key; it is
 * derived from the authorization server's secrets, which already live in the store, with HKDF
 * (RFC 5869) under a label of its own, so it is used for nothing else and reveals nothing of the
 * cookie key it comes from. A store with other secrets gives another key: a state minted there
 * is refused here (HOST-26).
 * @see SECURITY.md SCL-06
 */
import { hkdfSync } from 'node:crypto';
import type { GrantStore } from '../grant-store/index.js';
import { loadProviderSecrets, type ProviderSecrets } from './provider-secrets.js';

/** RFC 5869 §3.2: `info` binds the derived key to its one use. */
const PURPOSE = 'school-mcp hosted step-up requestState v1';
const KEY_BYTES = 32;

/** Pure: the step-up state key of these secrets. */
export function deriveStepUpStateKey(secrets: Pick<ProviderSecrets, 'cookieKeys'>): Uint8Array {
  const secret = secrets.cookieKeys[0];
  if (secret === undefined || secret === '')
    throw new RangeError('the authorization server has no cookie key to derive the step-up state key from');
  // No salt (RFC 5869 §3.1 allows it): the input is already 32 uniformly random bytes.
  return new Uint8Array(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), PURPOSE, KEY_BYTES));
}

/** The key every instance on this store shares; made with the store's secrets if it has none yet. */
export async function stepUpStateKey(store: GrantStore): Promise<Uint8Array> {
  return deriveStepUpStateKey(await loadProviderSecrets(store));
}
