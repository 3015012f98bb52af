import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseStoreKeys } from '../../src/grant-store/index.js';
import { fencesIn, stillHeld } from '../../src/grant-store/directory-lock.js';
import { parseSealedRecord, openRecord, sealRecord } from '../../src/grant-store/sealed-record.js';
import { fenceAccepts, nextFence } from '../../src/grant-store/fencing.js';
import { redisLockKeys, redisRecordKey } from '../../src/grant-store/redis-keys.js';

describe('locks and fences (pure)', () => {
  it('SCL-11 accepts a fenced write over an unfenced record or one with an equal or smaller fence, and refuses it under a greater one', () => {
    expect(fenceAccepts(undefined, 1)).toBe(true);
    expect(fenceAccepts(3, 3)).toBe(true);
    expect(fenceAccepts(3, 4)).toBe(true);
    expect(fenceAccepts(4, 3)).toBe(false);
  });

  it('SCL-10 hands out the fence after both the greatest issued and the one the record carries', () => {
    expect(nextFence(0, undefined)).toBe(1);
    expect(nextFence(7, 3)).toBe(8);
    expect(nextFence(0, 41)).toBe(42);
  });

  it('SCL-10 names the lock and the fence counter of a record next to its key, with nothing of the name in them', () => {
    const keys = redisLockKeys('school-grant', 'usr_owner_ada');
    const { key } = redisRecordKey('school-grant', 'usr_owner_ada');
    expect(keys.record).toBe(key);
    expect(keys.lock).toBe(key.replace(/^school-mcp:/, 'school-mcp:lock:'));
    expect(keys.fence).toBe(key.replace(/^school-mcp:/, 'school-mcp:fence:'));
    expect(JSON.stringify(keys)).not.toContain('usr_owner_ada');
    expect(redisLockKeys('school-grant', 'usr_lecturer_grace').lock).not.toBe(keys.lock);
    expect(() => redisLockKeys('Bad Namespace', 'x')).toThrow(RangeError);
  });

  it('SCL-10 reads a lock directory: only numbered entries are fences, and a holder holds until its expiry or release', () => {
    expect(fencesIn(['12', '3', 'abc.tmp', '07', '0', '100'])).toEqual([3, 12, 100]);
    expect(stillHeld(JSON.stringify({ owner: 'o', expiresAtMs: 2000 }), 1999)).toBe(true);
    expect(stillHeld(JSON.stringify({ owner: 'o', expiresAtMs: 2000 }), 2000)).toBe(false);
    expect(stillHeld(JSON.stringify({ owner: 'o', expiresAtMs: 0 }), 1)).toBe(false);
    expect(stillHeld(undefined, 1)).toBe(false);
    expect(stillHeld('not json', 1)).toBe(false);
  });

  it('SCL-11 seals a record with its fence in the clear for the store to compare, and does not open it once the fence is changed', () => {
    const parsed = parseStoreKeys(randomBytes(32).toString('base64'));
    if (!parsed.ok) throw new Error(parsed.reason);
    const address = { namespace: 'school-grant', name: 'ada.rec' };
    const sealed = sealRecord('{"value":{}}', address, undefined, parsed.keyring.current, 7);
    expect(parseSealedRecord(JSON.stringify(sealed))?.fence).toBe(7);
    expect(openRecord(sealed, address, parsed.keyring).ok).toBe(true);
    expect(openRecord({ ...sealed, fence: 99 }, address, parsed.keyring).ok).toBe(false);
    const { fence: _dropped, ...unfenced } = sealed;
    expect(openRecord(unfenced, address, parsed.keyring).ok).toBe(false);
    expect(parseSealedRecord(JSON.stringify({ ...sealed, fence: 'seven' }))).toBeUndefined();
    expect(parseSealedRecord(JSON.stringify({ ...sealed, fence: 0 }))).toBeUndefined();
  });
});
