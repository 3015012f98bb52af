import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseStoreKeys, type StoreKeyring } from '../../src/grant-store/index.js';
import { openRecord, sealRecord } from '../../src/grant-store/sealed-record.js';

function keyring(...keys: Buffer[]): StoreKeyring {
  const parsed = parseStoreKeys(keys.map((bytes) => bytes.toString('base64')).join(','));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyring;
}

const ADA = { namespace: 'school-grant', name: 'ada.rec' };
const GRACE = { namespace: 'school-grant', name: 'grace.rec' };

describe('sealed records (pure)', () => {
  it('HST-01 opens what it sealed, with a fresh nonce each time and nothing of the plaintext in the envelope', () => {
    const keys = keyring(randomBytes(32));
    const plaintext = JSON.stringify({ access_token: 'canary-ada-7f3a' });
    const first = sealRecord(plaintext, ADA, 1_900_000_000, keys.current);
    const second = sealRecord(plaintext, ADA, 1_900_000_000, keys.current);
    expect(first.nonce).not.toBe(second.nonce);
    expect(first.ciphertext).not.toBe(second.ciphertext);
    expect(JSON.stringify(first)).not.toContain('canary');
    expect(Buffer.from(first.nonce, 'base64url')).toHaveLength(12);
    expect(openRecord(first, ADA, keys)).toEqual({ ok: true, plaintext, keyId: keys.current.id });
  });

  it("HST-01 does not open a record moved under another user's name or namespace", () => {
    const keys = keyring(randomBytes(32));
    const sealed = sealRecord('{"value":{}}', ADA, undefined, keys.current);
    expect(openRecord(sealed, GRACE, keys).ok).toBe(false);
    expect(openRecord(sealed, { namespace: 'client', name: ADA.name }, keys).ok).toBe(false);
  });

  it('HST-01 does not open a record whose expiry, ciphertext, tag or nonce was changed', () => {
    const keys = keyring(randomBytes(32));
    const sealed = sealRecord('{"value":{"a":1}}', ADA, 1_900_000_000, keys.current);
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    expect(openRecord({ ...sealed, expiresAt: 1_999_999_999 }, ADA, keys).ok).toBe(false);
    const { expiresAt: _dropped, ...withoutExpiry } = sealed;
    expect(openRecord(withoutExpiry, ADA, keys).ok).toBe(false);
    expect(openRecord({ ...sealed, ciphertext: flip(sealed.ciphertext) }, ADA, keys).ok).toBe(false);
    expect(openRecord({ ...sealed, tag: flip(sealed.tag) }, ADA, keys).ok).toBe(false);
    expect(openRecord({ ...sealed, nonce: flip(sealed.nonce) }, ADA, keys).ok).toBe(false);
  });

  it('HST-03 opens a record sealed with an older key still in the ring, and names a key that is gone', () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const sealed = sealRecord('{"value":{}}', ADA, undefined, keyring(older).current);
    expect(openRecord(sealed, ADA, keyring(newer, older))).toMatchObject({
      ok: true,
      keyId: keyring(older).current.id,
    });
    const gone = openRecord(sealed, ADA, keyring(newer));
    expect(gone.ok).toBe(false);
    if (!gone.ok) expect(gone.reason).toContain(sealed.keyId);
  });
});
