/**
 * Whether a fenced write lands on the record file as it is now (`fencing.ts` for the rule). Pure.
 */
import { fenceAccepts } from './fencing.js';
import { parseSealedRecord } from './sealed-record.js';

export type FencedWriteVerdict =
  | { readonly kind: 'write' }
  /** `absent`: a `replaceOnly` write found no record; `superseded`: a write with a greater fence landed. */
  | { readonly kind: 'refuse'; readonly reason: 'absent' | 'superseded' };

/** Pure: the fence in the envelope of a record file's text, read without opening the seal. */
export function writtenFenceOf(text: string | undefined): number | undefined {
  return parseSealedRecord(text ?? '')?.fence;
}

/** Pure: whether a write with `fence` may replace the record file whose text is `text` (`undefined`: there is none). */
export function fencedWriteVerdict(
  text: string | undefined,
  fence: number,
  replaceOnly: boolean | undefined,
): FencedWriteVerdict {
  if (text === undefined && replaceOnly) return { kind: 'refuse', reason: 'absent' };
  if (!fenceAccepts(writtenFenceOf(text), fence)) return { kind: 'refuse', reason: 'superseded' };
  return { kind: 'write' };
}
