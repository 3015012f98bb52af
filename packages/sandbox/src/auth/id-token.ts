/**
 * ID tokens (OpenID Connect Core §2): a compact JWS signed with the server's key.
 */
import { createSign } from 'node:crypto';
import type { SigningKey } from './signing-key.js';

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  auth_time: number;
  nonce?: string;
  name?: string;
  email?: string;
}

/** Signs the claims as an RS256 JWS (RFC 7515 §7.1 compact serialization). */
export function signIdToken(claims: IdTokenClaims, key: SigningKey): string {
  const header = { alg: key.alg, typ: 'JWT', kid: key.kid };
  const signingInput = `${encodeSegment(header)}.${encodeSegment(claims)}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(key.privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
