import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestStateKey } from '../../src/app/request-state-key.js';

describe('the hosted request-state key (pure)', () => {
  it('SCL-27 is the same on every instance that shares the store key, and another under another store key', () => {
    const storeKey = randomBytes(32);
    const onA = requestStateKey(storeKey);
    const onB = requestStateKey(Buffer.from(storeKey));
    expect(onA).toHaveLength(32);
    expect(Buffer.from(onA).equals(Buffer.from(onB))).toBe(true);
    expect(Buffer.from(requestStateKey(randomBytes(32))).equals(Buffer.from(onA))).toBe(false);
  });

  it('SCL-27 is never the store key itself', () => {
    const storeKey = randomBytes(32);
    expect(Buffer.from(requestStateKey(storeKey)).equals(storeKey)).toBe(false);
  });
});
