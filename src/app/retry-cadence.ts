/**
 * How soon a school that could not be loaded is tried again. A host lists and calls in bursts;
 * each burst should not each send the school a request, and a school that stays away should cost
 * one request now and then, yet one that comes back should be found within half a minute.
 */

/** The wait after the first failure; it doubles with each failure after it. */
export const FIRST_RETRY_MS = 1_000;
/** The longest wait between two attempts. */
export const LONGEST_RETRY_MS = 30_000;

/** Pure: the wait after `failures` failed attempts in a row (one or more). */
export function retryDelayMs(failures: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(failures, 16) - 1));
}
