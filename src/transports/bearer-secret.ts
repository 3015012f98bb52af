/**
 * The HTTP endpoint's own credential: one bearer secret per launch, chosen by the user or made
 * here, sent by clients as `Authorization: Bearer <secret>` and compared in constant time.
 * It is never a token of the school, and nothing received in `Authorization` is ever forwarded.
 * @see SECURITY.md HTTP-04, HTTP-08
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: printable, header-safe, 256 bits. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Pure: a secret must fit in that header unchanged, and be long enough not to be guessed. */
export function isUsableSecret(secret: string): boolean {
  return /^[\x21-\x7E]{16,}$/.test(secret);
}

/**
 * Whether `presented` is the secret. The lengths are compared first (`timingSafeEqual` requires
 * equal lengths; the length of a 43-character secret is no secret), then every byte, in time
 * that does not depend on where the first difference is.
 */
export function secretMatches(presented: string | undefined, secret: string): boolean {
  if (presented === undefined) return false;
  const given = Buffer.from(presented, 'utf8');
  const expected = Buffer.from(secret, 'utf8');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/**
 * A stand-in for the secret that can be kept next to a session or handed to the MCP layer as the
 * caller's identity without the secret itself travelling any further.
 */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update('school-mcp http secret\0').update(secret, 'utf8').digest('base64url');
}
