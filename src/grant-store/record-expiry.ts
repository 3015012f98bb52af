/**
 * When a sealed record counts as gone. The expiry is read from the envelope in the clear, so a
 * sweep needs no key; it is bound into the seal, so a later expiry written there does not open. Pure.
 */
import { parseSealedRecord } from './sealed-record.js';

/** Pure: whether a record with this expiry (seconds since the epoch; none never expires) is gone at `nowSeconds`. */
export function hasExpired(expiresAt: number | undefined, nowSeconds: number): boolean {
  return expiresAt !== undefined && expiresAt <= nowSeconds;
}

/**
 * Pure: whether a sweep removes the record file whose text is `text` (`undefined`: gone since the
 * listing). Only an expired envelope is removed; a file that is no envelope is left to a read,
 * which sets it aside with a warning.
 */
export function sweepRemoves(text: string | undefined, nowSeconds: number): boolean {
  return hasExpired(parseSealedRecord(text ?? '')?.expiresAt, nowSeconds);
}
