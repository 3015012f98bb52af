import { describe, expect, it } from 'vitest';
import type { PathVerdict } from '../../src/private-files/index.js';
import { MAX_RECORD_BYTES, recordFileCheck, type RecordFileCheck } from '../../src/grant-store/record-file-check.js';

describe('record file check (pure)', () => {
  it.each<[string, PathVerdict, number, RecordFileCheck]>([
    ['a private file', { kind: 'private' }, 100, { kind: 'read', looseMode: undefined, oversized: false }],
    [
      'a file others can read',
      { kind: 'loose', mode: 0o644 },
      100,
      { kind: 'read', looseMode: 0o644, oversized: false },
    ],
    [
      'a file of the largest size',
      { kind: 'private' },
      MAX_RECORD_BYTES,
      { kind: 'read', looseMode: undefined, oversized: false },
    ],
    [
      'a file past the largest size',
      { kind: 'private' },
      MAX_RECORD_BYTES + 1,
      { kind: 'read', looseMode: undefined, oversized: true },
    ],
    ['a symbolic link', { kind: 'symlink' }, 10, { kind: 'refuse', problem: 'is a symbolic link; refusing to use it' }],
    ['a directory', { kind: 'wrong-kind' }, 10, { kind: 'refuse', problem: 'is not a regular file' }],
    ['a file of another user', { kind: 'foreign-owner' }, 10, { kind: 'refuse', problem: 'belongs to another user' }],
  ])('HST-02 answers for %s', (_what, verdict, size, expected) => {
    expect(recordFileCheck(verdict, size)).toEqual(expected);
  });
});
