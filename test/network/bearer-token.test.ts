import { describe, expect, it } from 'vitest';
import { bearerTokenOf } from '../../src/network/index.js';

describe('the token of an Authorization: Bearer header (RFC 6750 §2.1)', () => {
  it('HOST-01 takes a b64token from one well-formed Bearer header', () => {
    expect(bearerTokenOf(['Bearer abc.DEF-_~+/='])).toBe('abc.DEF-_~+/=');
    expect(bearerTokenOf(['bearer abc'])).toBe('abc');
    expect(bearerTokenOf(['Bearer  abc '])).toBe('abc');
    for (const header of [
      undefined,
      [],
      [''],
      ['Bearer'],
      ['Bearer a b'],
      ['Basic abc'],
      ['Bearer "abc"'],
      ['Bearer tok!en'],
      ['Bearer a', 'Bearer a'],
    ]) {
      expect(bearerTokenOf(header), JSON.stringify(header)).toBeUndefined();
    }
  });

  it('HTTP-04 reads exactly one Bearer token, of any visible characters for a secret the user chose', () => {
    expect(bearerTokenOf(['Bearer abc.DEF-123'], 'visible-ascii')).toBe('abc.DEF-123');
    expect(bearerTokenOf(['bearer  tok!en~'], 'visible-ascii')).toBe('tok!en~');
    expect(bearerTokenOf(['Bearer "abc"'], 'visible-ascii')).toBe('"abc"');
    for (const values of [
      undefined,
      [],
      ['Basic abc'],
      ['Bearer'],
      ['Bearer a b'],
      ['Bearer a', 'Bearer a'],
      ['Bearer tök'],
    ]) {
      expect(bearerTokenOf(values, 'visible-ascii'), JSON.stringify(values)).toBeUndefined();
    }
  });
});
