import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseStoreKeys, storeKeyId, storeKeysFromText } from '../../src/grant-store/index.js';

const key = () => randomBytes(32);

describe('store keys (pure)', () => {
  it('HST-03 seals with the first key and opens with every key given, each named by its own fingerprint', () => {
    const [newer, older] = [key(), key()];
    const parsed = parseStoreKeys(`${newer.toString('base64')}, ${older.toString('base64url')}\n`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.keyring.current.id).toBe(storeKeyId(newer));
    expect([...parsed.keyring.byId.keys()]).toEqual([storeKeyId(newer), storeKeyId(older)]);
    expect(storeKeyId(newer)).not.toBe(storeKeyId(older));
    expect(storeKeyId(newer)).toMatch(/^[0-9a-f]{16}$/);
    // The id is a fingerprint, not the key or a prefix of it.
    expect(newer.toString('hex')).not.toContain(storeKeyId(newer));
  });

  it.each([
    ['nothing', '', /no key/],
    ['a key of 16 bytes', randomBytes(16).toString('base64'), /16 bytes/],
    ['a passphrase', 'correct horse battery staple', /not base64|bytes/],
    [
      'a second key that is short',
      `${randomBytes(32).toString('base64')},${randomBytes(31).toString('base64')}`,
      /key 2/,
    ],
  ])('HST-03 refuses %s', (_label, text, reason) => {
    const parsed = parseStoreKeys(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('raises STORE_KEY_INVALID for an unusable key, without repeating it', () => {
    const secret = randomBytes(20).toString('base64');
    expect(() => storeKeysFromText(secret)).toThrow(expect.objectContaining({ code: 'STORE_KEY_INVALID' }));
    try {
      storeKeysFromText(secret);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(secret);
    }
  });
});
