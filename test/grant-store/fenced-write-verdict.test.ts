import { describe, expect, it } from 'vitest';
import { fencedWriteVerdict, writtenFenceOf } from '../../src/grant-store/fenced-write-verdict.js';

const envelope = (fence?: number) =>
  JSON.stringify({ version: 1, keyId: 'k1', nonce: 'n', tag: 't', ciphertext: 'c', ...(fence ? { fence } : {}) });

describe('fenced write verdict (pure)', () => {
  it.each([
    ['a fenced record', envelope(7), 7],
    ['a plainly written record', envelope(), undefined],
    ['a file that is no envelope', 'not a record', undefined],
    ['no record', undefined, undefined],
  ])('reads the fence of %s without opening it: %j', (_what, text, expected) => {
    expect(writtenFenceOf(text)).toBe(expected);
  });

  it.each([
    ['no record', undefined, 1, undefined, { kind: 'write' }],
    ['no record, replacing only', undefined, 1, true, { kind: 'refuse', reason: 'absent' }],
    ['a plainly written record, replacing only', envelope(), 1, true, { kind: 'write' }],
    ['a record with a smaller fence', envelope(3), 4, undefined, { kind: 'write' }],
    ['a record with the same fence', envelope(3), 3, true, { kind: 'write' }],
    ['a record with a greater fence', envelope(4), 3, undefined, { kind: 'refuse', reason: 'superseded' }],
    ['a record with a greater fence, replacing only', envelope(4), 3, true, { kind: 'refuse', reason: 'superseded' }],
    ['a file that is no envelope', 'not a record', 2, true, { kind: 'write' }],
  ] as const)('SCL-11 answers a write over %s', (_what, text, fence, replaceOnly, expected) => {
    expect(fencedWriteVerdict(text, fence, replaceOnly)).toEqual(expected);
  });
});
