/**
 * The key that seals hosted mode's 2026-07-28 input-required state. Behind a load balancer the
 * client's retry reaches any instance, so every instance must open what another sealed: the key
 * is derived (HKDF-SHA256, RFC 5869) from the store key they all share, under a label of its own,
 * so it is never the key that seals the store's records. Pure.
 */
import { hkdfSync } from 'node:crypto';

const LABEL = 'school-mcp hosted request state v1';

export function requestStateKey(storeKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', storeKey, new Uint8Array(0), LABEL, 32));
}
