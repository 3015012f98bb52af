/**
 * What the directory store does with a record file, from the verdict on its `lstat` and its size:
 * refuse it (a link, not a file, someone else's), or read it, tightening its mode first when
 * others could read it. Pure.
 */
import type { PathVerdict } from '../private-files/index.js';

/** Far above any grant or client record; a bigger file is not one of ours. */
export const MAX_RECORD_BYTES = 256 * 1024;

export type RecordFileCheck =
  /** `problem` completes "The grant store record <path> …". */
  | { readonly kind: 'refuse'; readonly problem: string }
  /** `looseMode`: the mode to report before setting 0600; `oversized`: read as text that is no record. */
  | { readonly kind: 'read'; readonly looseMode: number | undefined; readonly oversized: boolean };

/** Pure: what to do with a record file judged `verdict`, of `sizeBytes`. */
export function recordFileCheck(verdict: PathVerdict, sizeBytes: number): RecordFileCheck {
  if (verdict.kind === 'symlink') return { kind: 'refuse', problem: 'is a symbolic link; refusing to use it' };
  if (verdict.kind === 'wrong-kind') return { kind: 'refuse', problem: 'is not a regular file' };
  if (verdict.kind === 'foreign-owner') return { kind: 'refuse', problem: 'belongs to another user' };
  return {
    kind: 'read',
    looseMode: verdict.kind === 'loose' ? verdict.mode : undefined,
    oversized: sizeBytes > MAX_RECORD_BYTES,
  };
}
