import { describe, expect, it } from 'vitest';
import { registrationFits, validateRegistrationResponse } from '../../src/oauth/registration.js';
import { needsRefresh, parseExpiresIn, tokenSetFromResponse } from '../../src/oauth/token-set.js';

const context = {
  requestedScopes: ['openid', 'courses:read'],
  resource: 'https://school.example',
  clientId: 'c1',
  now: 1_000_000,
};
const response = (extra: Record<string, unknown>) => ({ access_token: 'AT-CANARY', token_type: 'Bearer', ...extra });

describe('token response', () => {
  it.each(['Bearer', 'bearer', 'BEARER'])('TK-02 accepts token_type %s', (tokenType) => {
    expect(tokenSetFromResponse(response({ token_type: tokenType }), context).accessToken).toBe('AT-CANARY');
  });

  it.each([['mac'], ['DPoP'], [undefined], [7]])('TK-02 refuses token_type %j', (tokenType) => {
    expect(() => tokenSetFromResponse(response({ token_type: tokenType }), context)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_INVALID_TOKEN_RESPONSE' }),
    );
  });

  it.each([[undefined], [''], [12]])('TK-02 refuses access_token %j', (accessToken) => {
    expect(() => tokenSetFromResponse(response({ access_token: accessToken }), context)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_INVALID_TOKEN_RESPONSE' }),
    );
  });

  it('TK-02 a missing expires_in means unknown expiry; a missing scope means as requested', () => {
    const tokens = tokenSetFromResponse(response({}), context);
    expect(tokens.expiresAt).toBeUndefined();
    expect(tokens.scopes).toEqual(['courses:read', 'openid']);
    expect(needsRefresh(tokens, context.now + 10 * 3600_000)).toBe(false);
  });

  it('RF-04 a refresh without a new refresh token keeps the old one; with one, it is replaced', () => {
    const first = tokenSetFromResponse(response({ refresh_token: 'RT-1', expires_in: 60, scope: 'openid' }), context);
    expect(tokenSetFromResponse(response({}), { ...context, previous: first }).refreshToken).toBe('RT-1');
    expect(
      tokenSetFromResponse(response({ refresh_token: 'RT-2' }), { ...context, previous: first }).refreshToken,
    ).toBe('RT-2');
    expect(tokenSetFromResponse(response({}), { ...context, previous: first }).scopes).toEqual(['openid']);
  });

  it('RF-04 an initial response without a refresh token stores none', () => {
    expect(tokenSetFromResponse(response({ expires_in: 60 }), context)).not.toHaveProperty('refreshToken');
  });

  it('RF-08 expires_in as a number or numeric string; anything else is unknown', () => {
    expect(parseExpiresIn(3600)).toBe(3600);
    expect(parseExpiresIn('3600')).toBe(3600);
    expect(parseExpiresIn('abc')).toBeUndefined();
    expect(parseExpiresIn(-5)).toBeUndefined();
  });

  it('RF-08 refreshes when less than a minute is left, or half the lifetime of a short token', () => {
    const hour = tokenSetFromResponse(response({ expires_in: 3600 }), context);
    expect(needsRefresh(hour, context.now + 3600_000 - 61_000)).toBe(false);
    expect(needsRefresh(hour, context.now + 3600_000 - 59_000)).toBe(true);
    const short = tokenSetFromResponse(response({ expires_in: 10 }), context);
    expect(needsRefresh(short, context.now + 4_000)).toBe(false);
    expect(needsRefresh(short, context.now + 6_000)).toBe(true);
    // A clock that jumped back an hour does not break anything: the token just looks fresh.
    expect(needsRefresh(hour, context.now - 3600_000)).toBe(false);
  });
});

describe('registration', () => {
  const redirectUri = 'http://127.0.0.1:50001/callback';

  it.each([
    [{}],
    [{ client_id: '' }],
    [{ client_id: 5 }],
    [{ client_id: 'c', redirect_uris: ['https://evil.example/cb'] }],
    [{ client_id: 'c', client_secret: 1 }],
  ])('RG-02 refuses the registration response %j', (raw) => {
    expect(() => validateRegistrationResponse(raw, redirectUri, 1)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_REGISTRATION_FAILED' }),
    );
  });

  it('RG-02 keeps an issued client secret with the client', () => {
    expect(
      validateRegistrationResponse(
        { client_id: 'c', client_secret: 'SECRET-CANARY', redirect_uris: [redirectUri] },
        redirectUri,
        1,
      ),
    ).toMatchObject({
      clientId: 'c',
      clientSecret: 'SECRET-CANARY',
    });
  });

  it('RG-03 a dynamic registration fits only its own redirect URI; others always fit', () => {
    const stored = validateRegistrationResponse({ client_id: 'c' }, redirectUri, 1);
    expect(registrationFits(stored, redirectUri)).toBe(true);
    expect(registrationFits(stored, 'http://127.0.0.1:50002/callback')).toBe(false);
    expect(registrationFits({ ...stored, kind: 'static' }, 'http://127.0.0.1:50002/callback')).toBe(true);
  });
});

describe('PKCE', () => {
  it('AZ-01 S256 of the RFC 7636 Appendix B verifier, and fresh 43-character verifiers', async () => {
    const client = await import('openid-client');
    await expect(client.calculatePKCECodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const verifiers = Array.from({ length: 1000 }, () => client.randomPKCECodeVerifier());
    expect(verifiers.every((verifier) => /^[A-Za-z0-9_-]{43}$/.test(verifier))).toBe(true);
    expect(new Set(verifiers).size).toBe(1000);
  });
});
