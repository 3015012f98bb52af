/**
 * The key that signs ID tokens (RS256, the algorithm every OpenID client accepts by default),
 * generated once per process and published as a JWK at `jwks_uri`.
 */
import { createHash, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';

export interface SigningKey {
  readonly kid: string;
  readonly alg: 'RS256';
  readonly privateKey: KeyObject;
  /** The public JWK as published in the key set. */
  readonly publicJwk: JsonWebKey;
}

let processKey: SigningKey | undefined;

/**
 * Generated on first use, and then shared by every sandbox of the process: an RSA key costs 50 to
 * 500 ms of CPU, many sandboxes never sign, and a test process starts dozens that do. Sharing it
 * lets no school pass for another: each ID token names its own issuer and audience, which a
 * client checks besides the signature (OpenID Connect Core §3.1.3.7).
 */
export function lazySigningKey(): () => SigningKey {
  return () => (processKey ??= generateSigningKey());
}

function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  // RFC 7638 thumbprint as the key id, so the same key always has the same id.
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
  return {
    kid: thumbprint,
    alg: 'RS256',
    privateKey,
    publicJwk: { kty: jwk.kty, n: jwk.n, e: jwk.e, kid: thumbprint, alg: 'RS256', use: 'sig' },
  };
}
