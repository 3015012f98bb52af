/**
 * `GET /api/oauth/jwks`: the public key that verifies ID tokens (RFC 7517 §5).
 */
import type { SigningKey } from './signing-key.js';

/** Pure: the key set document. */
export function buildJwks(key: SigningKey): { keys: unknown[] } {
  return { keys: [key.publicJwk] };
}
