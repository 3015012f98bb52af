import { describe, expect, it } from 'vitest';
import { hasExpired, sweepRemoves } from '../../src/grant-store/record-expiry.js';

const NOW = 1_800_000_000;
const envelope = (fields: Record<string, unknown>) =>
  JSON.stringify({ version: 1, keyId: 'k1', nonce: 'n', tag: 't', ciphertext: 'c', ...fields });

describe('record expiry (pure)', () => {
  it.each([
    [undefined, false],
    [NOW - 1, true],
    [NOW, true],
    [NOW + 1, false],
  ])('HST-05 a record expiring at %j has expired at now: %s', (expiresAt, expected) => {
    expect(hasExpired(expiresAt, NOW)).toBe(expected);
  });

  it.each([
    ['an envelope past its expiry', envelope({ expiresAt: NOW - 10 }), true],
    ['an envelope expiring this second', envelope({ expiresAt: NOW }), true],
    ['an envelope still valid', envelope({ expiresAt: NOW + 10 }), false],
    ['an envelope that never expires', envelope({}), false],
    ['a file that is no envelope', 'not a record', false],
    ['an envelope whose expiry is not a number', envelope({ expiresAt: 'yesterday' }), false],
    ['a file gone since the listing', undefined, false],
  ])('HST-05 a sweep removes %s: %s', (_what, text, expected) => {
    expect(sweepRemoves(text, NOW)).toBe(expected);
  });
});
