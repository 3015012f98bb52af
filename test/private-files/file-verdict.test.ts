import { describe, expect, it } from 'vitest';
import { judgePath, type PathFacts } from '../../src/private-files/file-verdict.js';

const ME = { posix: true, uid: 1000 };
const facts = (kind: PathFacts['kind'], mode: number, uid = 1000): PathFacts => ({ kind, mode, uid });

describe('ST-03 ST-07 judging a path under the config directory (pure)', () => {
  it.each([
    ['a 0600 file of mine', facts('file', 0o600), 'file', { kind: 'private' }],
    ['a 0400 file of mine', facts('file', 0o400), 'file', { kind: 'private' }],
    ['a 0644 file of mine', facts('file', 0o644), 'file', { kind: 'loose', mode: 0o644 }],
    ['a 0600 file of another user', facts('file', 0o600, 65534), 'file', { kind: 'foreign-owner' }],
    ['a symbolic link', facts('symlink', 0o777), 'file', { kind: 'symlink' }],
    ['a directory where a file is expected', facts('directory', 0o700), 'file', { kind: 'wrong-kind' }],
    ['a 0700 directory of mine', facts('directory', 0o700), 'directory', { kind: 'private' }],
    ['a world-writable directory of mine', facts('directory', 0o777), 'directory', { kind: 'loose', mode: 0o777 }],
    ['a directory of another user', facts('directory', 0o700, 0), 'directory', { kind: 'foreign-owner' }],
  ] as const)('%s', (_what, given, expected, verdict) => {
    expect(judgePath(given, expected, ME)).toEqual(verdict);
  });

  it('judges only the kind where there are no owners or modes (Windows)', () => {
    expect(judgePath(facts('file', 0o666, 5), 'file', { posix: false, uid: undefined })).toEqual({ kind: 'private' });
    expect(judgePath(facts('symlink', 0o666), 'file', { posix: false, uid: undefined })).toEqual({ kind: 'symlink' });
  });
});
