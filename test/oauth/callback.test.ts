import { describe, expect, it } from 'vitest';
import { callbackPage } from '../../src/oauth/callback-page.js';
import { validateCallback, type ExpectedCallback } from '../../src/oauth/callback-validation.js';

const issuer = 'https://as.example';
const state = 'S'.repeat(43);
const query = (text: string) => new URLSearchParams(text.replaceAll('$STATE', state));
const expectIss = (issRequired: boolean): ExpectedCallback => ({ issuer, state, issRequired });

describe('validateCallback', () => {
  it.each([
    [true, `iss=${encodeURIComponent(issuer)}`, 'code'],
    [true, '', 'fail'],
    [true, 'iss=https%3A%2F%2Fattacker.example', 'fail'],
    [false, '', 'code'],
    [false, 'iss=https%3A%2F%2Fattacker.example', 'fail'],
  ])('CB-01 iss supported=%s with "%s" → %s', (issRequired, issPart, kind) => {
    expect(validateCallback(query(`code=C&state=$STATE&${issPart}`), expectIss(issRequired)).kind).toBe(kind);
  });

  it.each([
    'HTTPS://as.example',
    'https://AS.example',
    'https://as.example:443',
    'https://as.example/',
    'https://as.exampl%65',
  ])('CB-01 refuses the look-alike issuer %s (no normalisation)', (iss) => {
    const params = query(`code=C&state=$STATE`);
    params.set('iss', iss);
    expect(validateCallback(params, expectIss(true)).kind).toBe('fail');
  });

  it('CB-01 an iss mismatch wins over an error, whose text is never read', () => {
    const verdict = validateCallback(
      query('error=access_denied&error_description=CANARY&state=$STATE&iss=https%3A%2F%2Fattacker.example'),
      expectIss(true),
    );
    expect(verdict).toEqual({ kind: 'fail', reason: 'iss does not match the issuer' });
  });

  it.each(['', 'state=', 'state=wrong', `state=${'s'.repeat(43)}`, 'state=$STATE&state=$STATE'])(
    'CB-02 a response with %j as state cannot be attributed: ignored, flow kept',
    (statePart) => {
      expect(
        validateCallback(query(`code=C&iss=${encodeURIComponent(issuer)}&${statePart}`), expectIss(true)).kind,
      ).toBe('ignore');
    },
  );

  it.each([
    'iss=$ISS&iss=$ISS&code=C',
    'code=C&code=D',
    'code=',
    '',
    'code=C&id_token=x',
    'code=C&token=x',
    'response=eyJ',
  ])('CB-03 refuses the malformed response %s without a code to exchange', (text) => {
    const params = query(`state=$STATE&${text.replaceAll('$ISS', encodeURIComponent(issuer))}`);
    if (!params.has('iss')) params.append('iss', issuer);
    expect(validateCallback(params, expectIss(true)).kind).toBe('fail');
  });

  it('CB-03 a response with both code and error is treated as the error, not redeemed', () => {
    expect(
      validateCallback(
        query(`code=C&error=access_denied&state=$STATE&iss=${encodeURIComponent(issuer)}`),
        expectIss(true),
      ),
    ).toEqual({
      kind: 'error',
      error: 'access_denied',
    });
  });

  it('CB-04 an error with valid iss and state is reported as that error', () => {
    expect(
      validateCallback(query(`error=invalid_scope&state=$STATE&iss=${encodeURIComponent(issuer)}`), expectIss(true)),
    ).toEqual({
      kind: 'error',
      error: 'invalid_scope',
    });
  });
});

describe('callbackPage', () => {
  it.each(['success', 'denied', 'failed', 'invalid'] as const)(
    'LB-07 the %s page is static, strict and reflects nothing',
    (kind) => {
      const page = callbackPage(kind);
      expect(page.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.body).not.toMatch(/<script|<img|<iframe|<link|src=|href=/i);
      expect(page.headers).not.toHaveProperty('location');
    },
  );
});
