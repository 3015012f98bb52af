import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseStoreKeys, type StoreKeyring } from '../../src/grant-store/index.js';
import { sealRecord } from '../../src/grant-store/sealed-record.js';
import { recordReading } from '../../src/grant-store/record-reading.js';

function keyring(...keys: Buffer[]): StoreKeyring {
  const parsed = parseStoreKeys(keys.map((bytes) => bytes.toString('base64')).join(' '));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

const NOW = 1_800_000_000;
const ADA = { namespace: 'school-grant', name: 'ada.rec' };
const GRACE = { namespace: 'school-grant', name: 'grace.rec' };
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const before = keyring(oldKey);
const after = keyring(newKey, oldKey);
const withoutOld = keyring(newKey);
const value = { accessToken: 'canary-ada' };
const sealedText = (keys: StoreKeyring, expiresAt?: number, fence?: number) =>
  JSON.stringify(sealRecord(JSON.stringify({ value }), ADA, expiresAt, keys.current, fence));

describe('record reading (pure)', () => {
  it.each([
    ['a record sealed with the current key', sealedText(after), after, { kind: 'value', value, oldKey: false }],
    [
      'a record sealed with a key listed after the first',
      sealedText(before),
      after,
      { kind: 'value', value, oldKey: true },
    ],
    ['a record expiring later', sealedText(after, NOW + 1), after, { kind: 'value', value, oldKey: false }],
    ['a record past its expiry', sealedText(after, NOW - 1), after, { kind: 'expired' }],
    ['a record past its expiry under a key that is gone', sealedText(before, NOW), withoutOld, { kind: 'expired' }],
    ['a record whose key is gone', sealedText(before), withoutOld, { kind: 'unknown-key', keyId: before.current.id }],
    ['text that is no sealed record', 'not a record', after, { kind: 'damaged', reason: 'not a sealed record' }],
  ])('HST-03 HST-05 reads %s', (_what, text, keys, expected) => {
    expect(recordReading(text, ADA, keys, NOW)).toMatchObject(expected);
  });

  it("HST-01 reads a record copied over another user's as damaged", () => {
    const reading = recordReading(sealedText(after), GRACE, after, NOW);
    expect(reading).toMatchObject({ kind: 'damaged', reason: expect.stringContaining('does not open') });
  });

  it('HST-01 reads a record whose expiry was moved later as damaged', () => {
    const text = JSON.stringify({ ...JSON.parse(sealedText(after, NOW - 1)), expiresAt: NOW + 3600 });
    expect(recordReading(text, ADA, after, NOW).kind).toBe('damaged');
  });

  it('HST-03 hands back what a reseal needs: the plaintext, the expiry and the fence', () => {
    const reading = recordReading(sealedText(before, NOW + 60, 5), ADA, after, NOW);
    if (reading.kind !== 'value') throw new Error(`expected a value, got ${reading.kind}`);
    expect(JSON.parse(reading.plaintext)).toEqual({ value });
    expect(reading.sealed).toMatchObject({ expiresAt: NOW + 60, fence: 5, keyId: before.current.id });
    expect(reading.oldKey).toBe(true);
  });
});
