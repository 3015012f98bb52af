import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/network/index.js';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('NET-04 Retry-After (RFC 9110 §10.2.3), for the sign-in and the API alike', () => {
  it.each([
    ['2', 2_000],
    [' 0 ', 0],
    ['86400', 86_400_000],
    ['Sun, 01 Mar 2026 12:00:03 GMT', 3_000],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
    ['garbage', undefined],
    ['soon', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['', undefined],
  ])('%j → %s ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it('reads an HTTP-date as made by toUTCString', () => {
    expect(parseRetryAfter(new Date(13_000).toUTCString(), 10_000)).toBe(3_000);
  });

  it('reads the first of repeated headers and tolerates absence', () => {
    expect(parseRetryAfter(['1', '9'], now)).toBe(1_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
