/**
 * Whether a file or directory under the config directory may be trusted, from its `lstat`. Pure.
 * A private path is a plain file or directory (never a symbolic link), owned by the user running
 * school-mcp, and closed to group and others. POSIX only: Windows has no owner uid or mode bits
 * here, so only the kind is judged there.
 * @see SECURITY.md ST-03, ST-07
 */

export interface PathFacts {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  readonly uid: number;
  /** Permission bits, e.g. 0o600. */
  readonly mode: number;
}

export interface Viewer {
  readonly posix: boolean;
  /** The current uid; undefined where the platform has none. */
  readonly uid: number | undefined;
}

export type PathVerdict =
  | { readonly kind: 'private' }
  /** Ours and of the right kind, but open to others (a directory: not exactly 0700): `mode` is what it has. */
  | { readonly kind: 'loose'; readonly mode: number }
  | { readonly kind: 'symlink' }
  | { readonly kind: 'wrong-kind' }
  | { readonly kind: 'foreign-owner' };

export function judgePath(facts: PathFacts, expected: 'file' | 'directory', viewer: Viewer): PathVerdict {
  if (facts.kind === 'symlink') return { kind: 'symlink' };
  if (facts.kind !== expected) return { kind: 'wrong-kind' };
  if (!viewer.posix) return { kind: 'private' };
  if (viewer.uid !== undefined && facts.uid !== viewer.uid) return { kind: 'foreign-owner' };
  const mode = facts.mode & 0o777;
  const tight = expected === 'directory' ? mode === 0o700 : (mode & 0o077) === 0;
  return tight ? { kind: 'private' } : { kind: 'loose', mode };
}

export function currentViewer(): Viewer {
  const posix = process.platform !== 'win32';
  return { posix, uid: posix && typeof process.getuid === 'function' ? process.getuid() : undefined };
}
