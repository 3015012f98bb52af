import { describe, expect, it } from 'vitest';
import { checkCodeChallenge, s256Challenge, verifyCodeVerifier } from '../../../packages/sandbox/src/auth/pkce.js';

// RFC 7636 Appendix B.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE', () => {
  it('computes the RFC 7636 Appendix B challenge', () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
  });

  it('PLAT-01 accepts the matching verifier and refuses any other', () => {
    expect(verifyCodeVerifier(VERIFIER, CHALLENGE)).toBe(true);
    expect(verifyCodeVerifier(`${VERIFIER.slice(0, -1)}Y`, CHALLENGE)).toBe(false);
  });

  it('PLAT-01 refuses a verifier outside the RFC 7636 alphabet or length, even with a matching hash', () => {
    const short = 'abc';
    expect(verifyCodeVerifier(short, s256Challenge(short))).toBe(false);
    const spaced = `${'a'.repeat(42)} `;
    expect(verifyCodeVerifier(spaced, s256Challenge(spaced))).toBe(false);
    const long = 'a'.repeat(129);
    expect(verifyCodeVerifier(long, s256Challenge(long))).toBe(false);
  });

  it('PLAT-01 refuses plain, a missing method and a missing challenge', () => {
    expect(checkCodeChallenge(CHALLENGE, 'plain').ok).toBe(false);
    expect(checkCodeChallenge(CHALLENGE, undefined).ok).toBe(false);
    expect(checkCodeChallenge(undefined, 'S256').ok).toBe(false);
    expect(checkCodeChallenge(CHALLENGE, 's256').ok).toBe(false);
  });

  it('refuses a challenge that cannot be an S256 value', () => {
    expect(checkCodeChallenge(VERIFIER.slice(0, 20), 'S256').ok).toBe(false);
    expect(checkCodeChallenge(`${CHALLENGE.slice(0, 42)}=`, 'S256').ok).toBe(false);
    expect(checkCodeChallenge(CHALLENGE, 'S256')).toEqual({ ok: true, challenge: CHALLENGE });
  });
});
