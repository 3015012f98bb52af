/**
 * The one rule for a school URL and for loopback, which the command line, the sign-in and the
 * API description all apply.
 */
import { describe, expect, it } from 'vitest';
import { parseSchoolUrl as parseForConfig } from '../../src/config/index.js';
import { checkSchoolUrl, isLoopbackAddress, isLoopbackName } from '../../src/network/index.js';
import { parseSchoolUrl as parseForSignIn } from '../../src/oauth/index.js';
import { resolveApiBase } from '../../src/openapi/index.js';

describe('school URL rule', () => {
  it.each([
    'https://school.example',
    'https://school.example/tenant1/',
    'http://127.0.0.1:4000',
    'http://[::1]:4000/base',
  ])('NET-07 accepts %s', (input) => {
    const verdict = checkSchoolUrl(input);
    expect(verdict.ok).toBe(true);
  });

  it('pins the issuer without a trailing slash and marks plain http on loopback', () => {
    const verdict = checkSchoolUrl('http://[::1]:4000/tenant1/');
    expect(verdict).toMatchObject({ ok: true, expectedIssuer: 'http://[::1]:4000/tenant1', plainHttpOnLoopback: true });
    expect(checkSchoolUrl('https://school.example/')).toMatchObject({ ok: true, plainHttpOnLoopback: false });
    // The URL parser writes a short IPv4 form out in full, so the rule sees the literal.
    expect(checkSchoolUrl('http://127.1:4000')).toMatchObject({ ok: true, expectedIssuer: 'http://127.0.0.1:4000' });
  });

  it.each([
    ['http://school.example', 'scheme'],
    ['http://localhost:4000', 'scheme'],
    ['http://127.0.0.2:4000', 'scheme'],
    ['http://0.0.0.0:4000', 'scheme'],
    ['http://127.0.0.1.nip.io:4000', 'scheme'],
    ['ftp://school.example', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['https://user:pw@school.example', 'credentials'],
    ['https://school.example/?tenant=1', 'query-or-fragment'],
    ['https://school.example/#top', 'query-or-fragment'],
    ['not a url', 'not-a-url'],
  ])('NET-07 refuses %s (%s)', (input, problem) => {
    expect(checkSchoolUrl(input)).toMatchObject({ ok: false, problem });
  });

  it('NET-07 is the same rule for the command line, the sign-in and the API description', () => {
    for (const input of ['https://school.example', 'http://127.0.0.1:4000', 'http://[::1]:4000']) {
      expect(parseForConfig(input).href).toBe(new URL(input).href);
      expect(parseForSignIn(input).url.href).toBe(new URL(input).href);
      expect(resolveApiBase({}, input).origin).toBe(new URL(input).origin);
    }
    for (const input of [
      'http://localhost:4000',
      'http://127.0.0.2:4000',
      'http://school.example',
      'https://user:pw@school.example',
    ]) {
      expect(() => parseForConfig(input)).toThrowError(expect.objectContaining({ code: 'CONFIG_INVALID' }));
      expect(() => parseForSignIn(input)).toThrowError(expect.objectContaining({ code: 'OAUTH_INVALID_SCHOOL_URL' }));
      expect(() => resolveApiBase({}, input)).toThrowError(expect.objectContaining({ code: 'OPENAPI_BAD_SCHOOL_URL' }));
    }
  });
});

describe('loopback', () => {
  it('LB-01 counts only the IP literals 127.0.0.1 and ::1 as loopback addresses', () => {
    for (const host of ['127.0.0.1', '::1', '[::1]']) expect(isLoopbackAddress(host), host).toBe(true);
    for (const host of [
      'localhost',
      '127.0.0.2',
      '127.1',
      '0.0.0.0',
      '::',
      '[::]',
      '::ffff:127.0.0.1',
      '127.0.0.1.nip.io',
      '',
    ])
      expect(isLoopbackAddress(host), host).toBe(false);
  });

  it('adds localhost, in any case, to the names that mean this machine', () => {
    for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', 'LocalHost'])
      expect(isLoopbackName(host), host).toBe(true);
    for (const host of ['localhost.evil.example', '0.0.0.0', '127.0.0.2', 'evil.example'])
      expect(isLoopbackName(host), host).toBe(false);
  });
});
