/**
 * PKCE with S256 only (RFC 7636; RFC 9700 §2.1.1 forbids the `plain` downgrade).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** The S256 challenge is base64url(SHA-256) without padding: always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export type ChallengeCheck = { ok: true; challenge: string } | { ok: false; reason: string };

/** Pure: validates the authorization request's challenge and method. */
export function checkCodeChallenge(challenge: string | undefined, method: string | undefined): ChallengeCheck {
  if (challenge === undefined || challenge === '') return { ok: false, reason: 'code_challenge is required (PKCE)' };
  if (method !== 'S256') {
    return {
      ok: false,
      reason:
        method === undefined
          ? 'code_challenge_method is required and must be S256'
          : 'code_challenge_method must be S256',
    };
  }
  if (!S256_CHALLENGE.test(challenge)) return { ok: false, reason: 'code_challenge is not a base64url SHA-256 value' };
  return { ok: true, challenge };
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Pure: whether the verifier is well formed and its S256 challenge equals the stored one. */
export function verifyCodeVerifier(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const expected = Buffer.from(challenge, 'ascii');
  const actual = Buffer.from(s256Challenge(verifier), 'ascii');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
